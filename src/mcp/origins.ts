/**
 * Which web origins may talk to Engram over postMessage. Deny by default: the page's own origin
 * is allowed; any other origin only after the person using Engram approves it in the page. An
 * approval is stored in the `approved_origins` setting (listed, revocable); an attempt by an
 * unapproved origin becomes a pending request the UI shows until it is approved or dismissed.
 *
 * `isAllowed` is synchronous (it runs inside a message handler), so approvals are cached in
 * memory and written through to the engine's settings. Every tab of the app holds its own cache,
 * so a change is announced on a BroadcastChannel and the other tabs re-read the stored list:
 * revoking in one tab closes that origin's connections in all of them.
 *
 * @example
 * const policy = await OriginPolicy.load(engine, location.origin);
 * policy.subscribe(() => render(policy.pending(), policy.approved()));
 * await policy.approve('http://localhost:5173');
 */
import { z } from 'zod';
import { MemoryError } from '../core/errors';
import { RELAY_PROFILES, type RelayProfile } from './transports/relay-protocol';

/** The settings key holding the approved origins. */
export const APPROVED_ORIGINS_KEY = 'approved_origins';

/** The engine methods the policy uses (an EngineApi, or its comlink Remote). */
export interface SettingsStore {
	getSetting<T = unknown>(key: string): Promise<T | undefined>;
	setSetting(key: string, value: unknown): Promise<void>;
}

/**
 * A stored approval. `profile` is the tool profile its clients get, whatever they ask for
 * ('native' when absent: entries stored before profiles were enforced).
 */
export const ApprovedOriginSchema = z.object({
	origin: z.string(),
	approved_at: z.string(),
	profile: z.enum(RELAY_PROFILES).optional(),
});
export type ApprovedOrigin = z.infer<typeof ApprovedOriginSchema>;

/** An unapproved origin that tried to connect. */
export interface OriginRequest {
	origin: string;
	/** How it reached the page: the embedding page, another window, or this page. */
	via: 'same-window' | 'parent' | 'window';
	first_seen: string;
	last_seen: string;
	attempts: number;
}

const ORIGIN_RULE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s@]+$/;

/** The BroadcastChannel on which tabs announce approval changes. */
export const ORIGINS_CHANNEL = 'engram-approved-origins';

/** The part of BroadcastChannel the policy uses (injectable for tests). */
export interface ChannelLike {
	postMessage(message: unknown): void;
	close(): void;
	onmessage: ((event: { data: unknown }) => void) | null;
}

/**
 * Normalises an origin (`scheme://host[:port]`, lower-cased); throws MemoryError invalid_input
 * naming `origin` for anything else, including the opaque origin "null" and wildcards.
 */
export function normaliseOrigin(input: string): string {
	const origin = input.trim().replace(/\/$/, '').toLowerCase();
	if (origin === 'null' || origin.includes('*'))
		throw new MemoryError('invalid_input', `origin ${JSON.stringify(input)} cannot be approved: it must name one site`);
	if (!ORIGIN_RULE.test(origin)) throw new MemoryError('invalid_input', `origin ${JSON.stringify(input)} must be scheme://host[:port], no path`);
	return origin;
}

/** The approve/deny state of postMessage origins, with change notification for the UI. */
export class OriginPolicy {
	readonly #store: SettingsStore;
	readonly #listeners = new Set<() => void>();
	#approved: ApprovedOrigin[] = [];
	#pending = new Map<string, OriginRequest>();
	#dismissed = new Set<string>();
	#channel?: ChannelLike;

	private constructor(
		store: SettingsStore,
		/** The page's own origin: always allowed, never stored. */
		readonly selfOrigin: string,
	) {
		this.#store = store;
	}

	/**
	 * Loads the stored approvals; malformed entries are skipped, not fatal. When storage cannot be
	 * read at all (a cross-site iframe whose browser denies it storage), the policy starts with no
	 * approvals — only the page's own origin — and `loadError` says why.
	 */
	static async load(store: SettingsStore, selfOrigin: string, opts: { channel?: ChannelLike | null } = {}): Promise<OriginPolicy> {
		const policy = new OriginPolicy(store, selfOrigin);
		try {
			policy.#approved = await policy.#read();
		} catch (e) {
			policy.loadError = `approved origins could not be read: ${(e as Error).message}`;
		}
		policy.#listen(opts.channel === undefined ? openChannel() : (opts.channel ?? undefined));
		return policy;
	}

	#listen(channel: ChannelLike | undefined): void {
		if (!channel) return;
		this.#channel = channel;
		// Another tab changed the stored list: re-read it (a failed read keeps the current list).
		channel.onmessage = () => void this.reload().catch(() => {});
	}

	/** Stops listening to the other tabs. */
	close(): void {
		this.#channel?.close();
		this.#channel = undefined;
	}

	/** Why the stored approvals could not be read, if they could not. */
	loadError?: string;

	/** True for the page's own origin and approved origins. */
	isAllowed(origin: string): boolean {
		if (origin === this.selfOrigin) return origin !== 'null';
		return this.#approved.some((a) => a.origin === origin);
	}

	/** Approved origins, oldest first. */
	approved(): ApprovedOrigin[] {
		return this.#approved.map((a) => ({ ...a }));
	}

	/** Origins waiting for a decision, most recent first. */
	pending(): OriginRequest[] {
		return [...this.#pending.values()].sort((a, b) => b.last_seen.localeCompare(a.last_seen));
	}

	/**
	 * The profile an approved origin's clients get (enforced: what a client asks for does not
	 * change it); undefined for an origin that is not approved.
	 */
	profileFor(origin: string): RelayProfile | undefined {
		const a = this.#approved.find((x) => x.origin === origin);
		return a ? (a.profile ?? 'native') : undefined;
	}

	/** Records an attempt by an unapproved origin (ignored when dismissed this session). */
	note(origin: string, via: OriginRequest['via']): void {
		if (origin === 'null' || this.isAllowed(origin) || this.#dismissed.has(origin)) return;
		const now = new Date().toISOString();
		const seen = this.#pending.get(origin);
		if (seen && Date.parse(now) - Date.parse(seen.last_seen) < 1000) return void (seen.attempts += 1);
		if (!seen && this.#pending.size >= 20) return; // a page spamming from many origins stays bounded
		this.#pending.set(
			origin,
			seen ? { ...seen, last_seen: now, attempts: seen.attempts + 1 } : { origin, via, first_seen: now, last_seen: now, attempts: 1 },
		);
		this.#emit();
	}

	/** Approves `origin` (stored before it takes effect); optionally with a default profile. */
	async approve(origin: string, opts: { profile?: RelayProfile } = {}): Promise<void> {
		const o = normaliseOrigin(origin);
		if (o === this.selfOrigin) return;
		const current = (await this.#read()).filter((a) => a.origin !== o);
		const entry: ApprovedOrigin = {
			origin: o,
			approved_at: new Date().toISOString(),
			...(opts.profile ? { profile: opts.profile } : {}),
		};
		const next = [...current, entry];
		await this.#store.setSetting(APPROVED_ORIGINS_KEY, next);
		this.#approved = next;
		this.#pending.delete(o);
		this.#dismissed.delete(o);
		this.#emit();
		this.#announce();
	}

	/** Removes an approval (stored before it takes effect); the origin's next attempt is pending again. */
	async revoke(origin: string): Promise<void> {
		const o = normaliseOrigin(origin);
		const next = (await this.#read()).filter((a) => a.origin !== o);
		await this.#store.setSetting(APPROVED_ORIGINS_KEY, next);
		this.#approved = next;
		this.#emit();
		this.#announce();
	}

	/** Dismisses a pending request: that origin's attempts are ignored until the page reloads. */
	deny(origin: string): void {
		this.#pending.delete(origin);
		this.#dismissed.add(origin);
		this.#emit();
	}

	/** Re-reads the stored approvals (e.g. after another tab changed them). */
	async reload(): Promise<void> {
		this.#approved = await this.#read();
		this.#emit();
	}

	/** Calls `listener` after every change; returns the unsubscribe function. */
	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	async #read(): Promise<ApprovedOrigin[]> {
		const raw = await this.#store.getSetting<unknown>(APPROVED_ORIGINS_KEY);
		if (!Array.isArray(raw)) return [];
		return raw.flatMap((r) => {
			const parsed = ApprovedOriginSchema.safeParse(r);
			return parsed.success ? [parsed.data] : [];
		});
	}

	#emit(): void {
		for (const l of this.#listeners) l();
	}

	/** Tells the other tabs the stored list changed (after it is stored). */
	#announce(): void {
		try {
			this.#channel?.postMessage({ type: 'approved_origins_changed' });
		} catch {
			// A closed channel: this tab is going away.
		}
	}
}

/** The app's channel, where the platform has BroadcastChannel. */
function openChannel(): ChannelLike | undefined {
	const BC = (globalThis as { BroadcastChannel?: new (name: string) => ChannelLike }).BroadcastChannel;
	return BC ? new BC(ORIGINS_CHANNEL) : undefined;
}
