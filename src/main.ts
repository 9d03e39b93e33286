/**
 * The app's entry point: starts the engine worker, the MCP host (postMessage clients, relay
 * pairing, WebMCP) and the UI. The engine client is exposed as `globalThis.__engram` and the host
 * as `globalThis.engramMcpHost` for end-to-end tests and devtools (same-origin scripts can reach
 * the data anyway).
 */
import './ui/styles.css';
import { mount } from 'svelte';
import App from './ui/app.svelte';
import { createEngineClient } from './engine/client';
import type { EngineApi } from './engine/types';
import { startMcpHost } from './mcp/host';

const engine = createEngineClient();
(globalThis as unknown as { __engram: typeof engine }).__engram = engine;

// Started before the UI so a relay pairing link in the hash is read (and cleared) first.
const host = startMcpHost(engine as unknown as EngineApi, {
	app: { name: 'Engram', version: __APP_VERSION__ },
	onError: (e) => console.warn('[engram mcp]', e.message),
});
host.catch((e: unknown) => console.error('[engram mcp] host failed to start', e));

mount(App, { target: document.getElementById('app')!, props: { engine, host } });
