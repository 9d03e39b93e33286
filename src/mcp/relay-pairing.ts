/**
 * The page's pairing with `engram-relay`: remembered in the `relay_pairing` setting, set from the
 * UI or from a pairing link (`/#relay=ws://127.0.0.1:PORT&token=TOKEN`, loopback addresses only),
 * and kept connected by a RelayClient. The link's token is removed from the address bar as soon
 * as it is read, so it does not linger in history or get bookmarked.
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
		};
	}

	/**
	 * Pairs from the page's address when it carries a pairing link (and cleans it off with
	 * `replaceUrl`), else from the remembered pairing. Never throws: a refused link is reported
	 * in `state().error`.
	 */
	async start(location: PairingLocation, replaceUrl: (url: string) => void): Promise<void> {
		if (await this.fromLink(location, replaceUrl)) return;
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

	/** Handles a pairing link in `location.hash`; returns true when there was one. */
	async fromLink(location: PairingLocation, replaceUrl: (url: string) => void): Promise<boolean> {
		const link = readPairingHash(location.hash);
		if (!link) return false;
		replaceUrl(`${location.pathname}${location.search}${link.rest}`);
		if (link.error) {
			this.#fail(link.error);
			return true;
		}
		await this.pair(link.pairing!.url, link.pairing!.token);
		return true;
	}

	/** Pairs with a relay (stored first, then connected); throws MemoryError invalid_input naming the field. */
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
		this.#connect(record);
	}

	/** Forgets the pairing and disconnects every relay client. */
	async unpair(): Promise<void> {
		await this.#opts.store.setSetting(RELAY_PAIRING_KEY, null);
		this.#disconnect();
		this.#pairing = undefined;
		this.#error = undefined;
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
