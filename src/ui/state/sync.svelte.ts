/**
 * The page's one sync controller (src/sync) and its status as Svelte state, shared by the
 * Settings panel and the status chip. PouchDB is loaded only when sync starts.
 *
 * What a device keeps to resume after a reload is the engine setting `sync_config`: the server,
 * database and user (the password only when the person ticked "Remember password"), and the
 * derived AES key as a non-extractable CryptoKey (IndexedDB stores it by structured clone; its
 * bytes cannot be read back). Never the passphrase.
 *
 * One tab syncs at a time: the Web Lock `engram-sync` is held while a controller runs. Other tabs
 * wait for it (and take over when the holder closes) and meanwhile show the holder's status,
 * posted on the BroadcastChannel `engram-sync`.
 */
import { proxy } from 'comlink';
import type { SyncController, SyncStatus } from '../../sync/controller';
import type { SyncServer } from '../../sync/connection';
import { databaseUrl } from '../../sync/server-url';
import type { EngineProxy } from './engine-proxy';

const DEVICE_KEY = 'engram-sync-device';
/** The engine setting holding what resumes sync after a reload. */
export const SYNC_CONFIG_KEY = 'sync_config';
const LOCK = 'engram-sync';
const OFF: SyncStatus = { on: false, status: 'off', pending: 0, skipped: [] };

/** What `sync_config` holds. */
interface SavedSync {
	server: SyncServer;
	key: CryptoKey;
}

/** The kept configuration as the form shows it (no key, no password). */
export interface SavedServer {
	url: string;
	database: string;
	user?: string;
	/** Whether the password was remembered. */
	password: boolean;
	/** The scopes synced (all when absent). */
	scopes?: string[];
}

type Message = { type: 'status'; status: SyncStatus } | { type: 'ask' } | { type: 'stop' };

/** This browser profile's device id (ties in conflicts are broken by it). */
function deviceId(): string {
	let id = localStorage.getItem(DEVICE_KEY);
	if (!id) localStorage.setItem(DEVICE_KEY, (id = crypto.randomUUID()));
	return id;
}

class SyncState {
	status = $state<SyncStatus>(OFF);
	/** The configuration kept on this device, if any. */
	saved = $state<SavedServer | undefined>(undefined);
	/** True while another tab of this browser runs sync (this one waits for the lock). */
	elsewhere = $state(false);
	#controller: SyncController | undefined;
	#engine: EngineProxy | undefined;
	#release: (() => void) | undefined;
	#waiting = false;
	#channel: BroadcastChannel | undefined;

	/**
	 * Called once at app start: reads the kept configuration and, when it is complete, resumes
	 * sync as soon as this tab holds the lock. Resolves when sync runs, or right away when there
	 * is nothing to resume.
	 */
	async restore(engine: EngineProxy): Promise<void> {
		this.#engine = engine;
		this.#listen();
		const cfg = await this.#read();
		if (!cfg || (cfg.server.user && cfg.server.password === undefined)) return;
		await this.#hold(true, async (c) => {
			// Read again: another tab may have stopped sync while this one waited.
			const now = await this.#read();
			if (!now || (now.server.user && now.server.password === undefined)) return false;
			await c.startWithKey(now.server, now.key);
			return true;
		}).catch((e: Error) => (this.status = { ...OFF, status: 'error', error: e.message }));
	}

	/**
	 * Starts syncing from the form. With an empty passphrase and a kept key for the same server
	 * and database, resumes with that key (the password was not remembered); otherwise derives the
	 * key. Keeps the configuration for the next start; the password only when `remember`.
	 */
	async start(engine: EngineProxy, server: SyncServer, passphrase: string, remember = true): Promise<void> {
		this.#engine = engine;
		this.#listen();
		const kept = await this.#read();
		const same = kept && databaseUrl(kept.server) === databaseUrl(server);
		let key: CryptoKey | undefined;
		await this.#hold(false, async (c) => {
			if (!passphrase && same) await c.startWithKey(server, (key = kept.key));
			else key = await c.start(server, passphrase);
			return true;
		});
		const keep: SyncServer = { ...server, password: remember ? server.password : undefined };
		await engine.setSetting(SYNC_CONFIG_KEY, { server: keep, key: key! } satisfies SavedSync);
		this.#show(keep);
	}

	pause(): void {
		this.#controller?.pause();
	}

	resume(): void {
		this.#controller?.resume();
	}

	/** Stops syncing this device (from any tab) and forgets the configuration and key; local memories stay. */
	async stop(): Promise<void> {
		await this.#controller?.stop();
		// Forget before letting go of the lock, so a waiting tab does not resume from it.
		await this.#engine?.setSetting(SYNC_CONFIG_KEY, undefined);
		this.#release?.();
		this.#release = undefined;
		this.#channel?.postMessage({ type: 'stop' } satisfies Message);
		this.saved = undefined;
		this.status = OFF;
	}

	/** For bench/sync.ts: where the controller's time went. */
	timings(): Record<string, number> | undefined {
		return this.#controller ? { ...this.#controller.timings } : undefined;
	}

	/** For e2e tests: waits until queued sync work is done. */
	idle(): Promise<void> {
		return this.#controller?.idle() ?? Promise.resolve();
	}

	async #read(): Promise<SavedSync | undefined> {
		const cfg = (await this.#engine!.getSetting(SYNC_CONFIG_KEY)) as SavedSync | undefined;
		if (!cfg?.key || !cfg.server) return undefined;
		this.#show(cfg.server);
		return cfg;
	}

	#show(s: SyncServer): void {
		this.saved = { url: s.url, database: s.database, user: s.user, password: s.password !== undefined, scopes: s.scopes };
	}

	async #ctl(): Promise<SyncController> {
		if (this.#controller) return this.#controller;
		const [{ SyncController, setListenerWrapper }, { default: PouchDB }] = await Promise.all([import('../../sync/controller'), import('pouchdb-browser')]);
		setListenerWrapper((f) => proxy(f as never) as never);
		const c = (this.#controller = new SyncController(this.#engine as never, PouchDB as never, deviceId()));
		c.onStatus((s) => {
			this.status = s;
			this.#channel?.postMessage({ type: 'status', status: $state.snapshot(s) } satisfies Message);
		});
		return c;
	}

	/**
	 * Runs `go` holding the Web Lock and keeps the lock until `stop`. With `wait`, queues for the
	 * lock (another tab syncing); without, fails at once when another tab holds it.
	 */
	#hold(wait: boolean, go: (c: SyncController) => Promise<boolean>): Promise<void> {
		if (!navigator.locks)
			return this.#ctl()
				.then(go)
				.then(() => undefined);
		if (this.#release) return Promise.reject(new Error('Sync is already running in this tab.'));
		return new Promise((resolve, reject) => {
			this.#waiting = true;
			void navigator.locks.query().then((q) => {
				if (this.#waiting && q.held?.some((l) => l.name === LOCK)) {
					this.elsewhere = true;
					this.#channel?.postMessage({ type: 'ask' } satisfies Message);
				}
			});
			navigator.locks
				.request(LOCK, { ifAvailable: !wait }, async (lock) => {
					this.#waiting = false;
					this.elsewhere = false;
					if (!lock) return reject(new Error('Sync already runs in another tab of this browser.'));
					let started: boolean;
					try {
						started = await go(await this.#ctl());
					} catch (e) {
						return reject(e);
					}
					resolve();
					if (started) await new Promise<void>((r) => (this.#release = r));
				})
				.catch(reject);
		});
	}

	/** The channel between this browser's tabs: the holder's status, and Stop from any tab. */
	#listen(): void {
		if (this.#channel || typeof BroadcastChannel === 'undefined') return;
		this.#channel = new BroadcastChannel(LOCK);
		this.#channel.onmessage = (e: MessageEvent<Message>) => {
			const m = e.data;
			if (m.type === 'status' && this.elsewhere) this.status = m.status;
			else if (m.type === 'ask' && this.#release) this.#channel?.postMessage({ type: 'status', status: $state.snapshot(this.status) } satisfies Message);
			else if (m.type === 'stop') {
				this.saved = undefined;
				if (this.#release) void this.#controller?.stop().finally(() => (this.#release?.(), (this.#release = undefined)));
				else this.status = OFF;
			}
		};
	}
}

export const sync = new SyncState();
(globalThis as { __engramSync?: SyncState }).__engramSync = sync;
