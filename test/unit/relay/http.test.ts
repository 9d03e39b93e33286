/** The relay's Streamable HTTP side in process: session bookkeeping. */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HTTP_SESSIONS } from '../../../relay/http';
import { startPrimary, type Primary } from '../../../relay/primary';
import { freePort } from '../../e2e/helpers';

const TOKEN = 'http-test-token-0123456789';
let primary: Primary | undefined;
afterEach(async () => {
	await primary?.close();
	primary = undefined;
});

const headers = {
	Authorization: `Bearer ${TOKEN}`,
	'Content-Type': 'application/json',
	Accept: 'application/json, text/event-stream',
};
const initialize = JSON.stringify({
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: {
		protocolVersion: '2025-06-18',
		capabilities: {},
		clientInfo: { name: 'x', version: '1' },
	},
});

describe('HttpSessions', () => {
	it('keeps at most MAX_HTTP_SESSIONS sessions, closing the least recently used', async () => {
		const port = await freePort();
		const logs: string[] = [];
		primary = await startPrimary({
			port,
			token: TOKEN,
			profile: 'native',
			allowOrigins: [],
			appUrl: 'http://127.0.0.1:4173',
			version: 't',
			log: (l) => logs.push(l),
		});
		const url = `http://127.0.0.1:${port}/mcp`;
		const open = async () => {
			const res = await fetch(url, { method: 'POST', headers, body: initialize });
			await res.text();
			return res.headers.get('mcp-session-id')!;
		};
		const ping = async (sid: string) => {
			const res = await fetch(url, {
				method: 'POST',
				headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
			});
			await res.text();
			return res.status;
		};
		const first = await open();
		const second = await open();
		for (let i = 2; i < MAX_HTTP_SESSIONS; i++) await open();
		expect(await ping(first)).toBe(200); // now the most recently used
		await open(); // one too many: `second` is the least recently used
		expect(await ping(second)).toBe(404);
		expect(await ping(first)).toBe(200);
		expect(logs).toContain(`closed the least recently used HTTP session (the relay serves at most ${MAX_HTTP_SESSIONS} sessions)`);
		expect(primary.hub.sessions).toHaveLength(MAX_HTTP_SESSIONS);
	});
});
