/**
 * One hostile desktop client against the real engram-relay and the app in Chromium (its relay
 * sessions served from the engine worker): after each thing it sends, the relay and the tab still
 * serve a well-behaved client, the tab stays paired, and the hostile client gets an answer for
 * every request it made.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT } from '../../src/mcp/transports/relay-protocol';
import { newToken, relayHome, spawnRaw, waitFor, waitForLog, type RawRelay } from '../unit/relay/helpers';
import { engine } from './app-support';
import { openPairingLink, type HostHandle } from './bridges-support';
import { freePort, launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;
let port: number;
let hostile: RawRelay;
let bystander: Client;
const token = newToken();
const home = relayHome();
const consoleLines: string[] = [];

const status = () => page.evaluate(() => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.snapshot().relay.connection?.status);
const total = async () => (await engine<{ total_memories: number }>(page, 'stats', {})).total_memories;

/** Sends `line` (text or bytes) on the hostile client's stdin and waits for `n` answers. */
async function exchange(line: string | Buffer, n = 1, ms = 30_000): Promise<Record<string, unknown>[]> {
	const before = hostile.lines.length;
	hostile.child.stdin!.write(typeof line === 'string' ? `${line}\n` : Buffer.concat([line, Buffer.from('\n')]));
	await waitFor(() => hostile.lines.length >= before + n, ms);
	return hostile.lines.slice(before) as Record<string, unknown>[];
}

/** The well-behaved client is served, and the tab is still paired. */
async function stillServes(): Promise<void> {
	const answer = await bystander.callTool({ name: 'recall_memory', arguments: { query: 'relay' } });
	expect(answer.isError).toBeFalsy();
	expect(await status()).toBe('connected');
}

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	port = await freePort();
	hostile = spawnRaw(['--port', String(port), '--app-url', server.url], { ENGRAM_RELAY_HOME: home.dir, ENGRAM_RELAY_TOKEN: token });
	await waitForLog(hostile.log, 'listening');
	page = await browser.context.newPage();
	page.on('console', (m) => void consoleLines.push(m.text()));
	await openPairingLink(page, `${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
	await waitFor(async () => expect(await status()).toBe('connected'), 60_000);
	bystander = new Client({ name: 'bystander', version: '1' });
	await bystander.connect(
		new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
			requestInit: { headers: { Authorization: `Bearer ${token}` } },
		}),
	);
	await bystander.callTool({ name: 'store_memory', arguments: { content: 'The relay keeps serving well-behaved clients.' } });
}, 180_000);

afterAll(async () => {
	await bystander?.close().catch(() => {});
	hostile?.child.kill('SIGKILL');
	await browser?.close();
	await server?.stop();
	home.remove();
});

describe('one hostile desktop client, the real relay and the app in Chromium', () => {
	it('gets an answer to a call before initialize, to odd ids and to requests the tab cannot read', async () => {
		const [early] = await exchange('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall_memory","arguments":{"query":"early"}}}');
		expect(early).toMatchObject({ id: 1 });
		for (const id of ['{"x":1}', 'null', '[2]']) {
			const [answer] = await exchange(`{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`);
			expect(answer).toMatchObject({ error: { code: -32600, message: expect.stringContaining('id must be a string or a number') } });
		}
		const [a] = await exchange('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"store_memory"}');
		expect(a).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: params: /) } });
		const [batch] = await exchange('[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":1}}]');
		expect(batch).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }, expect.objectContaining({ id: 4, error: expect.objectContaining({ code: -32600 }) })]);
		await stillServes();
	});

	it('is refused bytes that are not UTF-8, and a 50 MB call, with nothing stored', async () => {
		const before = await total();
		const bad = Buffer.concat([
			Buffer.from('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"caf'),
			Buffer.from([0xc3, 0x28]),
			Buffer.from('"}}}'),
		]);
		const [refused] = await exchange(bad);
		expect(refused).toMatchObject({ id: 10, error: { message: expect.stringContaining('not valid UTF-8') } });
		const huge = JSON.stringify({
			jsonrpc: '2.0',
			id: 11,
			method: 'tools/call',
			params: { name: 'store_memory', arguments: { content: 'x'.repeat(50 * 1024 * 1024) } },
		});
		const [big] = await exchange(huge, 1, 120_000);
		expect(big).toMatchObject({ id: 11 });
		expect(JSON.stringify(big)).toMatch(/content/i);
		expect(await total()).toBe(before);
		await stillServes();
	});

	it(`floods ${20 * MAX_IN_FLIGHT} calls at once: every one answered, those over ${MAX_IN_FLIGHT} refused at once`, async () => {
		const N = 20 * MAX_IN_FLIGHT;
		const lines = Array.from({ length: N }, (_, i) =>
			JSON.stringify({ jsonrpc: '2.0', id: 1000 + i, method: 'tools/call', params: { name: 'recall_memory', arguments: { query: `flood ${i}` } } }),
		);
		const answers = (await exchange(lines.join('\n'), N, 120_000)) as { id: number; error?: { message: string } }[];
		expect(new Set(answers.map((a) => a.id)).size).toBe(N);
		expect(answers.filter((a) => a.error?.message.startsWith('Too many requests in flight')).length).toBeGreaterThan(0);
		await stillServes();
		expect(consoleLines.join('\n')).not.toContain(token);
	});
});
