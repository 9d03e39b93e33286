/**
 * The page's one sync controller (src/sync) and its status as Svelte state, shared by the
 * Settings panel and the status chip. PouchDB is loaded only when sync starts.
 */
import { proxy } from 'comlink';
import type { SyncController, SyncStatus } from '../../sync/controller';
import type { SyncServer } from '../../sync/connection';
import type { Engine } from './context';

const DEVICE_KEY = 'engram-sync-device';

/** This browser profile's device id (ties in conflicts are broken by it). */
function deviceId(): string {
	let id = localStorage.getItem(DEVICE_KEY);
	if (!id) localStorage.setItem(DEVICE_KEY, (id = crypto.randomUUID()));
	return id;
}

class SyncState {
	status = $state<SyncStatus>({ on: false, status: 'off', pending: 0, skipped: [] });
	#controller: SyncController | undefined;

	async start(engine: Engine, server: SyncServer, passphrase: string): Promise<void> {
		const [{ SyncController, setListenerWrapper }, { default: PouchDB }] = await Promise.all([import('../../sync/controller'), import('pouchdb-browser')]);
		setListenerWrapper((f) => proxy(f as never) as never);
		const c = (this.#controller ??= new SyncController(engine as never, PouchDB as never, deviceId()));
		c.onStatus((s) => (this.status = s));
		await c.start(server, passphrase);
	}

	pause(): void {
		this.#controller?.pause();
	}

	resume(): void {
		this.#controller?.resume();
	}

	async stop(): Promise<void> {
		await this.#controller?.stop();
	}

	/** For e2e tests: waits until queued sync work is done. */
	idle(): Promise<void> {
		return this.#controller?.idle() ?? Promise.resolve();
	}
}

export const sync = new SyncState();
(globalThis as { __engramSync?: SyncState }).__engramSync = sync;
