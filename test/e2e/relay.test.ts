/**
 * engram-relay with the built app in Chromium: the real bin spawned by the SDK's
 * StdioClientTransport (as Claude Desktop does), the app opened at its pairing link, desktop
 * clients storing and recalling through the tab, two at once with different profiles, a reload
 * survived, foreign tokens and origins refused, Streamable HTTP, and the MCP Inspector CLI.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BIN, handshake, relayHome, spawnRelayClient, waitFor, waitForLog, type StdioRelayClient } from '../unit/relay/helpers';
import { hostReady, type HostHandle } from './bridges-support';
import { ROOT, freePort, launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;
let port: number;
let token: string;
let desk: StdioRelayClient;
const home = relayHome();
const env = { ENGRAM_RELAY_HOME: home.dir };
const clients: StdioRelayClient[] = [];
const consoleLines: string[] = [];
/** Every URL the page (and its workers) fetched or opened a WebSocket to. */
const urlsSeen: string[] = [];

const relayState = () => page.evaluate(() => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.snapshot().relay);
const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
const AUTOMEM_TOOLS = ['associate_memories', 'check_database_health', 'delete_memory', 'recall_memory', 'store_memory', 'update_memory'];

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	port = await freePort();
	// No --token: the relay generates one and saves it (0600); started by a client, it keeps the
	// token out of its log, and `--pairing-link` prints the link.
	desk = await spawnRelayClient(['--port', String(port), '--app-url', server.url], env, 'desktop-native');
	clients.push(desk);
	token = readFileSync(`${home.dir}/relay-token`, 'utf8').trim();
	page = await browser.context.newPage();
	page.on('console', (m) => void consoleLines.push(m.text()));
	page.on('request', (r) => void urlsSeen.push(r.url()));
	page.on('websocket', (ws) => void urlsSeen.push(ws.url()));
	page.on('worker', (w) => void urlsSeen.push(w.url()));
});

afterAll(async () => {
	for (const c of clients) await c.close().catch(() => {});
	await browser?.close();
	await server?.stop();
	home.remove();
});

describe('engram-relay with the app in Chromium', () => {
	it('answers clearly while no tab is paired', async () => {
		await expect(desk.client.listTools()).rejects.toThrow(`Engram is not connected: no Engram tab is paired with engram-relay on port ${port}`);
		await expect(desk.client.callTool({ name: 'recall_memory', arguments: { query: 'x' } })).rejects.toThrow('Engram is not connected');
	});

	it('pairs from the link --pairing-link prints in one click, cleans the token off the address, and tells the client its tools changed', async () => {
		expect(desk.log()).not.toContain(token);
		const printed = spawnSync(process.execPath, [BIN, '--port', String(port), '--app-url', server.url, '--pairing-link'], {
			encoding: 'utf8',
			env: { PATH: process.env.PATH ?? '', ...env },
		});
		const link = printed.stdout.trim();
		expect(link).toBe(`${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
		let changed = 0;
		desk.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
		await page.goto(link!);
		await hostReady(page);
		// The link only asks: nothing is saved or connected before the person's one click.
		const dialog = page.getByRole('dialog', { name: 'Pair with a desktop relay?' });
		await dialog.waitFor();
		expect(await dialog.getByTestId('relay-link-new').innerText()).toBe(`127.0.0.1:${port}`);
		expect(await dialog.innerText()).toContain(`Whatever program listens on 127.0.0.1:${port} would be able to read and change every memory.`);
		expect(await dialog.innerText()).not.toContain(token);
		expect((await relayState()).url).toBeUndefined();
		await dialog.getByRole('button', { name: 'Pair', exact: true }).click();
		await expect.poll(async () => (await relayState()).connection?.status, { timeout: 30_000 }).toBe('connected');
		expect(page.url()).toBe(`${server.url}/`);
		expect((await relayState()).url).toBe(`ws://127.0.0.1:${port}`);
		await waitFor(() => changed >= 1);
		expect(await names(desk.client)).toEqual(expect.arrayContaining(['store_memory', 'recall_memory', 'find_memory_connections']));
	});

	it('stores and recalls through the tab', async () => {
		const stored = await desk.client.callTool({
			name: 'store_memory',
			arguments: {
				content: 'Ana prefers tabs over spaces in every TypeScript project.',
				tags: ['style'],
			},
		});
		expect(stored.isError).toBeFalsy();
		const recalled = await desk.client.callTool({
			name: 'recall_memory',
			arguments: { query: 'tabs or spaces in TypeScript' },
		});
		const results = (recalled.structuredContent as { results: { memory: { content: string } }[] }).results;
		expect(results[0]!.memory.content).toBe('Ana prefers tabs over spaces in every TypeScript project.');
	});

	it('serves a second desktop client with another profile at the same time', async () => {
		const second = await spawnRelayClient(['--port', String(port), '--profile', 'automem'], env, 'desktop-automem');
		clients.push(second);
		await waitForLog(second.log, 'joined the engram-relay already running');
		const [a, b] = await Promise.all([names(desk.client), names(second.client)]);
		expect(b).toEqual(AUTOMEM_TOOLS);
		expect(a).toContain('find_memory_connections');
		const [r1, r2] = await Promise.all([
			desk.client.callTool({ name: 'recall_memory', arguments: { query: 'tabs over spaces' } }),
			second.client.callTool({
				name: 'recall_memory',
				arguments: { query: 'tabs over spaces', format: 'json' },
			}),
		]);
		expect(r1.isError).toBeFalsy();
		expect(r2.isError).toBeFalsy();
		const connections = await page.evaluate(() => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.snapshot().connections);
		expect(
			connections
				.filter((c) => c.kind === 'relay')
				.map((c) => [c.client?.name, c.profile])
				.sort(),
		).toEqual([
			['desktop-automem', 'automem'],
			['desktop-native', 'native'],
		]);
	});

	it('keeps serving after the tab reloads (the pairing is remembered)', async () => {
		await page.reload();
		await hostReady(page);
		await expect.poll(async () => (await relayState()).connection?.status, { timeout: 30_000 }).toBe('connected');
		await waitFor(async () => {
			const r = await desk.client.callTool({
				name: 'recall_memory',
				arguments: { query: 'TypeScript indentation preference' },
			});
			expect(JSON.stringify(r.structuredContent)).toContain('Ana prefers tabs');
		});
	});

	it('refuses a WebSocket with a wrong token or a foreign Origin; the token never reaches the console or a URL the app opens', async () => {
		const verdict = (url: string, origin: string) =>
			new Promise<number | 'open'>((ok, fail) => {
				const ws = new WebSocket(url, 'mcp', { origin });
				ws.on('open', () => (ws.close(), ok('open')));
				ws.on('unexpected-response', (_q, res) => (ws.terminate(), ok(res.statusCode!)));
				ws.on('error', fail);
			});
		expect(await handshake(port, `${token.slice(1)}x`, 'tab', server.url)).toMatchObject({
			refused: 4004,
		});
		expect(await verdict(`ws://127.0.0.1:${port}/`, 'https://attacker.example')).toBe(403);
		expect((await relayState()).connection?.status).toBe('connected');
		expect(consoleLines.join('\n')).not.toContain(token);
		expect(urlsSeen.some((u) => u.startsWith(`ws://127.0.0.1:${port}`))).toBe(true);
		expect(urlsSeen.filter((u) => u.includes(token))).toEqual([]);
	});

	it('serves Streamable HTTP with the bearer token, and refuses it without one or with a foreign Host', async () => {
		const http = new Client({ name: 'http-desktop', version: '1' });
		await http.connect(
			new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp?profile=memory-mcp`), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			}),
		);
		expect(await names(http)).toEqual([
			'add_labels',
			'del_labels',
			'delete_memory',
			'get_memory',
			'memory_stats',
			'random_memory',
			'replace_labels',
			'retrieve_memories',
			'store_memory',
			'trending_labels',
		]);
		const stored = await http.callTool({
			name: 'store_memory',
			arguments: { content: 'HTTP clients reach the same memory.', labels: 'http, test' },
		});
		expect(stored.isError).toBeFalsy();
		await http.close();
		expect(await status({})).toBe(401);
		expect(await status({ Authorization: `Bearer ${token}`, Host: `rebound.attacker.example:${port}` })).toBe(403);
	});

	it('works with the MCP Inspector CLI (joining the running relay)', async () => {
		const run = (args: string[]) =>
			spawnSync(
				'npx',
				[
					'-y',
					'@modelcontextprotocol/inspector@2.12.0',
					'--cli',
					'-e',
					`ENGRAM_RELAY_HOME=${home.dir}`,
					process.execPath,
					BIN,
					'--port',
					String(port),
					...args,
				],
				{
					cwd: ROOT,
					encoding: 'utf8',
					timeout: 300_000,
				},
			);
		const list = run(['--method', 'tools/list']);
		expect(list.status, list.stderr).toBe(0);
		expect((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('recall_memory');
		const call = run([
			'--method',
			'tools/call',
			'--tool-name',
			'recall_memory',
			'--tool-args-json',
			JSON.stringify({ query: 'tabs over spaces' }),
			'--format',
			'json',
			'-q',
		]);
		expect(call.status, call.stderr).toBe(0);
		expect(call.stdout).toContain('Ana prefers tabs');
	}, 400_000);

	it('gives a desktop client that starts its own relay the tools on its first ask, while the open tab finds that relay', async () => {
		// Every relay gone (each exits with its client), the paired tab retries on its own.
		for (const c of clients.splice(0)) await c.close();
		await expect.poll(async () => (await relayState()).connection?.status, { timeout: 30_000 }).not.toBe('connected');
		// As Claude Desktop starts: spawn, initialize, and ask for the tools at once.
		const late = await spawnRelayClient(['--port', String(port)], env, 'desktop-late');
		clients.push(late);
		expect(await names(late.client)).toContain('recall_memory');
		const r = await late.client.callTool({ name: 'recall_memory', arguments: { query: 'tabs over spaces' } });
		expect(JSON.stringify(r.structuredContent)).toContain('Ana prefers tabs');
	});
});

/** The status of an initialize POST to /mcp with these headers (node:http, so Host can be forged). */
function status(headers: Record<string, string>): Promise<number> {
	const body = JSON.stringify({
		jsonrpc: '2.0',
		id: 1,
		method: 'initialize',
		params: {
			protocolVersion: '2025-06-18',
			capabilities: {},
			clientInfo: { name: 'x', version: '1' },
		},
	});
	return new Promise((ok, fail) => {
		const req = request(
			{
				host: '127.0.0.1',
				port,
				path: '/mcp',
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					Accept: 'application/json, text/event-stream',
					...headers,
				},
			},
			(res) => {
				ok(res.statusCode!);
				res.destroy();
			},
		);
		req.on('error', fail);
		req.end(body);
	});
}
