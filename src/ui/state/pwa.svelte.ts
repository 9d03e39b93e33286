/**
 * The service worker's lifecycle as the UI sees it: offline-ready, and an update waiting for the
 * person to accept (registerType 'prompt': a new version never reloads a tab by itself).
 */
import { registerSW } from 'virtual:pwa-register';

/** Service-worker state and the action that applies a waiting update. */
export class Pwa {
	needRefresh = $state(false);
	offlineReady = $state(false);
	registered = $state(false);
	error = $state<string | undefined>(undefined);
	#update: ((reload?: boolean) => Promise<void>) | undefined;

	/** Registers the service worker (no-op where service workers are unavailable). */
	start(): void {
		if (!('serviceWorker' in navigator)) return;
		this.#update = registerSW({
			immediate: true,
			onNeedRefresh: () => (this.needRefresh = true),
			onOfflineReady: () => (this.offlineReady = true),
			onRegisteredSW: () => (this.registered = true),
			onRegisterError: (e: unknown) => (this.error = String(e)),
		});
	}

	/** Activates the waiting version and reloads into it. */
	async update(): Promise<void> {
		await this.#update?.(true);
	}

	dismiss(): void {
		this.needRefresh = false;
		this.offlineReady = false;
	}
}
