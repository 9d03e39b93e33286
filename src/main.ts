/**
 * The app's entry point. It starts the engine worker first, from a small chunk, so the model and
 * the index load while the rest of the page (MCP host and UI, `boot.ts`) is fetched and parsed.
 * The engine client is exposed as `globalThis.__engram` and the host as
 * `globalThis.engramMcpHost` for end-to-end tests and devtools (same-origin scripts can reach the
 * data anyway).
 */
import './core/zod-jitless';
import { createEngineClient } from './engine/client';
import { holdPairingLink } from './mcp/pairing-link';

// Before anything else: a relay pairing link's token leaves the address bar now, not once the
// engine has started (seconds later); the MCP host picks the link up from there.
holdPairingLink(window);

const engine = createEngineClient();
(globalThis as unknown as { __engram: typeof engine }).__engram = engine;

import('./boot').then(({ boot }) => boot(engine)).catch((e: unknown) => console.error('[engram] the page failed to start', e));
