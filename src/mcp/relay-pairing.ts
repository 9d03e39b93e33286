/**
 * The page's pairing with `engram-relay`: remembered in the `relay_pairing` setting, set from the
 * UI or from a pairing link (`/#relay=ws://127.0.0.1:PORT&token=TOKEN`, loopback addresses only),
 * and kept connected by a RelayClient. The link's token is removed from the address bar as soon
 * as it is read, so it does not linger in history or get bookmarked.
 *
 * Any page can send the person to a pairing link, and whatever program listens at the link's
 * address would be served every memory, so a link never pairs by itself: paired or not, a link
 * that differs from the current pairing becomes an `offer` the person must accept (nothing is
 * stored or connected before). A page inside another page (an iframe) refuses links outright: the
 * outer page could lay its own content over the dialog and steer the click. Pairing from the form
 * in the app is the person's own act and takes effect at once.
 */
import { MemoryError } from '../core/errors';
import type { SettingsStore } from './origins';
import {
	RelayClient,
	readPairingHash,
	validatePairing,
	type RelayPairing,
	type RelaySessionTransport,
	type RelayState,
	type WebSocketConstructor,
} from './transports/relay-client';

/** The settings key of the remembered pairing. */
export const RELAY_PAIRING_KEY = 'relay_pairing';

/** The relay pairing as the UI sees it (the token is never exposed). */
export interface RelayPairingState {
	/** The paired relay's address, when paired. */
	url?: string;
	paired_at?: string;
	/** The connection, when paired. */
	connection?: RelayState;
	/** Why the last pairing attempt (a link, a form) was refused. */
	error?: string;
	/** A pairing link opened, waiting for the person to accept or refuse it. */
	offer?: RelayLinkOffer;
}

/** A pairing link waiting for confirmation (its token stays inside the manager). */
export interface RelayLinkOffer {
	/** The relay the link points at. */
	url: string;
	/** The relay it would replace (absent while unpaired). */
	replaces?: string;
	/** When the pairing it would replace was made. */
	replaces_paired_at?: string;
	/** True when the link is for the same address with another token (a restarted relay). */
	same_address: boolean;
}

/** Where the pairing link is read from and cleaned off. */
export interface PairingLocation {
	readonly hash: string;
	readonly pathname: string;
	readonly search: string;
}

/** Where a pairing link was opened. */
export interface LinkContext {
	/** True when the app runs inside another page (an iframe): links are refused there. */
	framed?: boolean;
}

/** Why a pairing link is refused in an app framed by another page. */
export const FRAMED =
	'pairing links work only when Engram is open in its own tab, not inside another page: open the link in a new tab, or pair on the Connections screen';

/** What the pairing manager needs. */
export interface RelayPairingOptions {
	store: SettingsStore;
	onSession(transport: RelaySessionTransport): void;
	onChange(): void;
	WebSocket?: WebSocketConstructor;
	app?: { name: string; version: string };
	backoff?: { initialMs: number; maxMs: number };
}

/** Holds the pairing and its connection. */
export class RelayPairingManager {
	readonly #opts: RelayPairingOptions;
	#client?: RelayClient;
	#pairing?: RelayPairing & { paired_at: string };
	#error?: string;
	#offer?: RelayPairing;

	constructor(opts: RelayPairingOptions) {
		this.#opts = opts;
	}

	/** The pairing and connection state. */
	state(): RelayPairingState {
		return {
			url: this.#pairing?.url,
			paired_at: this.#pairing?.paired_at,
			connection: this.#client?.state,
			error: this.#error,
			...(this.#offer
				? {
						offer: {
							url: this.#offer.url,
							...(this.#pairing ? { replaces: this.#pairing.url, replaces_paired_at: this.#pairing.paired_at } : {}),
							same_address: this.#offer.url === this.#pairing?.url,
						},
					}
				: {}),
		};
	}

	/**
	 * Connects to the remembered pairing, then reads a pairing link from the page's address (and
	 * cleans it off with `replaceUrl`) as `fromLink` does. Never throws: a refused link is reported
	 * in `state().error`.
	 */
	async start(location: PairingLocation, replaceUrl: (url: string) => void, from: LinkContext = {}): Promise<void> {
		// The token leaves the address bar before anything else can fail.
		const link = readPairingHash(location.hash);
		if (link) replaceUrl(`${location.pathname}${location.search}${link.rest}`);
		await this.#restore();
		if (link) this.#fromLinkParts(link, from);
	}

	async #restore(): Promise<void> {
		const saved = await this.#opts.store
			.getSetting<{ url?: unknown; token?: unknown; paired_at?: unknown }>(RELAY_PAIRING_KEY)
			.catch((e: unknown) => void this.#fail(e));
		if (typeof saved?.url !== 'string' || typeof saved.token !== 'string') return;
		try {
			const p = validatePairing(saved.url, saved.token);
			this.#connect({
				...p,
				paired_at: typeof saved.paired_at === 'string' ? saved.paired_at : new Date().toISOString(),
			});
		} catch (e) {
			this.#fail(e);
		}
	}

	/**
	 * Handles a pairing link in `location.hash` (cleaned off at once); returns true when there was
	 * one. A link that differs from the current pairing (or any link while unpaired) only records
	 * an `offer` (see `acceptOffer`); the same pairing again changes nothing.
	 */
	async fromLink(location: PairingLocation, replaceUrl: (url: string) => void, from: LinkContext = {}): Promise<boolean> {
		const link = readPairingHash(location.hash);
		if (!link) return false;
		replaceUrl(`${location.pathname}${location.search}${link.rest}`);
		this.#fromLinkParts(link, from);
		return true;
	}

	#fromLinkParts(link: NonNullable<ReturnType<typeof readPairingHash>>, from: LinkContext): void {
		if (from.framed) return this.#fail(new MemoryError('invalid_input', FRAMED));
		if (link.error) return this.#fail(link.error);
		const { url, token } = link.pairing!;
		if (this.#pairing?.url === url && this.#pairing.token === token) return;
		this.#offer = { url, token };
		this.#error = undefined;
		this.#opts.onChange();
	}

	/** Pairs with the offered relay (stored, then connected), replacing any pairing; no-op without an offer. */
	async acceptOffer(): Promise<void> {
		const offer = this.#offer;
		if (!offer) return;
		this.#offer = undefined;
		await this.pair(offer.url, offer.token);
	}

	/** Forgets the offered link; the current pairing (or none) stays as it is. */
	declineOffer(): void {
		this.#offer = undefined;
		this.#opts.onChange();
	}

	/**
	 * Pairs with a relay (stored first, then connected), replacing any pairing; the person's own
	 * act (the form). Throws MemoryError invalid_input naming the field.
	 */
	async pair(url: string, token: string): Promise<void> {
		let pairing: RelayPairing;
		try {
			pairing = validatePairing(url, token);
		} catch (e) {
			this.#fail(e);
			throw e;
		}
		const record = { ...pairing, paired_at: new Date().toISOString() };
		await this.#opts.store.setSetting(RELAY_PAIRING_KEY, record);
		this.#error = undefined;
		this.#offer = undefined;
		this.#connect(record);
		this.#opts.onChange();
	}

	/** Forgets the pairing and disconnects every relay client. */
	async unpair(): Promise<void> {
		await this.#opts.store.setSetting(RELAY_PAIRING_KEY, null);
		this.#disconnect();
		this.#pairing = undefined;
		this.#error = undefined;
		this.#offer = undefined;
		this.#opts.onChange();
	}

	/** Retries now (after a backoff wait, or to take the relay back from another tab). */
	reconnect(): void {
		this.#client?.reconnectNow();
	}

	/** Closes the connection but keeps the pairing (the page is going away). */
	stop(): void {
		this.#disconnect();
	}

	#connect(pairing: RelayPairing & { paired_at: string }): void {
		this.#disconnect();
		this.#pairing = pairing;
		this.#client = new RelayClient({
			pairing,
			onSession: this.#opts.onSession,
			onState: () => this.#opts.onChange(),
			WebSocket: this.#opts.WebSocket,
			app: this.#opts.app,
			backoff: this.#opts.backoff,
		});
		this.#client.start();
	}

	#disconnect(): void {
		this.#client?.stop();
		this.#client = undefined;
	}

	#fail(e: unknown): void {
		this.#error = e instanceof MemoryError ? e.message : String((e as Error)?.message ?? e);
		this.#opts.onChange();
	}
}
