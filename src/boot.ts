/**
 * Everything the page runs besides the engine worker: the MCP host (postMessage clients, relay
 * pairing, WebMCP) and the UI. Loaded by main.ts after it has started the worker, so the model
 * and the index start loading while this bundle is still being fetched and parsed.
 */
import './ui/styles.css';
import { mount } from 'svelte';
import App from './ui/app.svelte';
import type { EngineClient } from './engine/client';
import type { EngineApi } from './engine/types';
import { startMcpHost } from './mcp/host';
import type { RelayControl } from './mcp/relay-host';

/** Starts the host, then mounts the UI. */
export function boot(engine: EngineClient): void {
	// Started before the UI so a relay pairing link in the hash is read (and cleared) first.
	const host = startMcpHost(engine as unknown as EngineApi, {
		app: { name: 'Engram', version: __APP_VERSION__ },
		// The worker serves the relay's desktop clients itself (workers/engine.worker.ts).
		relayControl: (engine as unknown as { relay: RelayControl }).relay,
		onError: (e) => console.warn('[engram mcp]', e.message),
	});
	host.catch((e: unknown) => console.error('[engram mcp] host failed to start', e));
	mount(App, { target: document.getElementById('app')!, props: { engine, host } });
}
