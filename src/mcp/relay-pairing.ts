/**
 * The page's pairing with `engram-relay`: remembered in the `relay_pairing` setting, set from the
 * UI or from a pairing link (`/#relay=ws://127.0.0.1:PORT&token=TOKEN`, loopback addresses only),
 * and kept connected by a RelayClient. The link's token is removed from the address bar as soon
 * as it is read, so it does not linger in history or get bookmarked.
 *
 * Any page can send the person to a pairing link, so a link never silently replaces a pairing:
 * while paired, a link that differs becomes an `offer` the person must accept (nothing is stored
 * or connected before), and the first pairing from a link is reported as a `notice` the person can
 * undo. Pairing from the form in the app is the person's own act and takes effect at once.
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
	/** A pairing link opened while paired, waiting for the person to accept or refuse it. */
	offer?: RelayLinkOffer;
	/** The pairing just made from a link while unpaired (until dismissed), so it can be undone. */
	notice?: { url: string; paired_at: string };
}

/** A pairing link waiting for confirmation (its token stays inside the manager). */
export interface RelayLinkOffer {
	/** The relay the link points at. */
	url: string;
	/** The relay it would replace. */
	replaces: string;
	/** When the pairing it would replace was made. */
	replaces_paired_at: string;
	/** True when the link is for the same address with another token (a restarted relay). */
	same_address: boolean;
}

/** Where the pairing link is read from and cleaned off. */
export interface PairingLocation {
	readonly hash: string;
	readonly pathname: string;
	readonly search: string;
}

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
	#notice?: { url: string; paired_at: string };

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
			...(this.#offer && this.#pairing
				? {
						offer: {
							url: this.#offer.url,
							replaces: this.#pairing.url,
							replaces_paired_at: this.#pairing.paired_at,
							same_address: this.#offer.url === this.#pairing.url,
						},
					}
				: {}),
			...(this.#notice ? { notice: { ...this.#notice } } : {}),
		};
	}

	/**
	 * Connects to the remembered pairing, then reads a pairing link from the page's address (and
	 * cleans it off with `replaceUrl`) as `fromLink` does. Never throws: a refused link is reported
	 * in `state().error`.
	 */
	async start(location: PairingLocation, replaceUrl: (url: string) => void): Promise<void> {
		// The token leaves the address bar before anything else can fail.
		const link = readPairingHash(location.hash);
		if (link) replaceUrl(`${location.pathname}${location.search}${link.rest}`);
		await this.#restore();
		if (link) await this.#fromLinkParts(link);
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
	 * one. Unpaired, it pairs and leaves a `notice`; paired with another relay or token, it only
	 * records an `offer` (see `acceptOffer`); the same pairing again changes nothing.
	 */
	async fromLink(location: PairingLocation, replaceUrl: (url: string) => void): Promise<boolean> {
		const link = readPairingHash(location.hash);
		if (!link) return false;
		replaceUrl(`${location.pathname}${location.search}${link.rest}`);
		await this.#fromLinkParts(link);
		return true;
	}

	async #fromLinkParts(link: NonNullable<ReturnType<typeof readPairingHash>>): Promise<void> {
		if (link.error) return this.#fail(link.error);
		const { url, token } = link.pairing!;
		if (!this.#pairing) {
			// pair() shows its own failure in the pairing status.
			await this.pair(url, token).catch(() => {});
			const made = this.state();
			if (made.url === url && made.paired_at) this.#notice = { url, paired_at: made.paired_at };
			return this.#opts.onChange();
		}
		if (this.#pairing.url === url && this.#pairing.token === token) return;
		this.#offer = { url, token };
		this.#error = undefined;
		this.#opts.onChange();
	}

	/** Replaces the pairing with the offered one (stored, then connected); no-op without an offer. */
	async acceptOffer(): Promise<void> {
		const offer = this.#offer;
		if (!offer) return;
		this.#offer = undefined;
		this.#notice = undefined;
		await this.pair(offer.url, offer.token);
	}

	/** Forgets the offered link; the current pairing stays as it is. */
	declineOffer(): void {
		this.#offer = undefined;
		this.#opts.onChange();
	}

	/** Undoes the pairing a link made while unpaired (no-op once it was replaced or dismissed). */
	async undoLinkPairing(): Promise<void> {
		const notice = this.#notice;
		this.#notice = undefined;
		if (notice && this.#pairing?.url === notice.url && this.#pairing.paired_at === notice.paired_at) await this.unpair();
		else this.#opts.onChange();
	}

	/** Hides the notice of a pairing made from a link (keeping the pairing). */
	dismissNotice(): void {
		this.#notice = undefined;
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
		this.#notice = undefined;
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
