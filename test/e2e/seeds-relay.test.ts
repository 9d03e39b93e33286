/**
 * The seed systems' agents through the real relay: the built app in Chromium paired with the
 * `engram-relay` bin, one SDK client per compatibility profile (spawned over stdio, as a desktop
 * client does), all on one tab. Pins what the acceptance probes found at the transport and
 * browser level: an offset past any store (real IndexedDB's cursor takes an unsigned long) is an
 * empty page, not a storage error; retried deletes racing each other through the relay delete
 * one memory once and answer each call in the profile's own terms; and a seed's example flow
 * (store a, store b, link, search, update, delete) works end to end with its id formats. Also:
 * a duplicate's new tags reach the kept memory, replace_labels refuses a label the memory lacks,
 * and a recall offset past the store is an empty page.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken, relayHome, spawnRelayClient, type StdioRelayClient } from '../unit/relay/helpers';
import { openPairingLink } from './bridges-support';
import { freePort, launchBrowser, startPreview, type Browser, type Server } from './helpers';

const PROFILES = ['native', 'automem', 'aiakiv', 'codomyrmex', 'memory-mcp'] as const;
type ProfileName = (typeof PROFILES)[number];

let server: Server;
let browser: Browser;
const home = relayHome();
const clients = new Map<ProfileName, StdioRelayClient>();

async function call(profile: ProfileName, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
	return (await clients.get(profile)!.client.callTool({ name, arguments: args })) as CallToolResult;
}
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const sc = <T>(r: CallToolResult) => r.structuredContent as T;

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	const port = await freePort();
	const token = newToken();
	const env = { ENGRAM_RELAY_HOME: home.dir };
	for (const p of PROFILES)
		clients.set(p, await spawnRelayClient(['--port', String(port), '--token', token, '--profile', p, '--app-url', server.url], env, `seeds-${p}`));
	const page = await browser.context.newPage();
	await openPairingLink(page, `${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
	// Paired once the relay lists the tab's tools to the last client.
	for (
		let i = 0;
		!(
			await clients
				.get('memory-mcp')!
				.client.listTools()
				.catch(() => ({ tools: [] }))
		).tools.some((t) => t.name === 'retrieve_memories');
		i++
	) {
		if (i > 600) throw new Error(`the tab did not pair with the relay:\n${clients.get('native')!.log()}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}, 120_000);

afterAll(async () => {
	for (const c of clients.values()) await c.close().catch(() => {});
	await browser?.close();
	await server?.stop();
	home.remove();
});

describe('seed agents through the relay', () => {
	it('export_memories with an offset past any store answers an empty page, not a storage error', async () => {
		await call('native', 'store_memory', { content: 'Export probe: the VPN config lives in the team vault.' });
		for (const offset of [2 ** 32, 1e15, Number.MAX_SAFE_INTEGER]) {
			const r = await call('native', 'export_memories', { offset });
			expect(r.isError, textOf(r)).toBeFalsy();
			expect(sc<{ memory_count: number; has_more: boolean }>(r)).toMatchObject({ memory_count: 0, has_more: false });
		}
	});

	it('AutoMem: store a, store b, associate, recall, update, delete, and a retried delete says not found', async () => {
		const a = sc<{ memory_id: string }>(
			await call('automem', 'store_memory', {
				content: 'Chose PostgreSQL for the billing service: invoices need ACID transactions.',
				tags: ['billing'],
				importance: 0.8,
				type: 'Decision',
			}),
		).memory_id;
		const b = sc<{ memory_id: string }>(
			await call('automem', 'store_memory', {
				content: 'Billing timed out Friday: the PostgreSQL pool was exhausted; raised it to 50.',
				tags: ['billing'],
			}),
		).memory_id;
		const linked = await call('automem', 'associate_memories', { memory1_id: b, memory2_id: a, type: 'RELATES_TO', strength: 0.9 });
		expect(sc<{ success: boolean }>(linked).success).toBe(true);
		const recalled = await call('automem', 'recall_memory', { query: 'why did billing time out' });
		expect(textOf(recalled)).toContain(`ID: ${b}`);
		expect((await call('automem', 'update_memory', { memory_id: a, importance: 0.95 })).isError).toBeFalsy();
		const deletes = await Promise.all([0, 1, 2].map(() => call('automem', 'delete_memory', { memory_id: b })));
		expect(deletes.filter((r) => !r.isError)).toHaveLength(1);
		for (const r of deletes.filter((d) => d.isError)) expect(textOf(r)).toBe(`not_found: memory_id: no memory with id "${b}"`);
		// The other memory is untouched.
		expect(textOf(await call('automem', 'recall_memory', { memory_id: a }))).toContain('Chose PostgreSQL');
	});

	it('memory-mcp: retried deletes racing through the relay each answer with the integer id', async () => {
		const { id } = sc<{ id: number }>(await call('memory-mcp', 'store_memory', { content: 'Race target: the cat is called Miso.', labels: 'pets' }));
		const { id: other } = sc<{ id: number }>(await call('memory-mcp', 'store_memory', { content: 'The dog is called Pico.', labels: 'pets' }));
		const deletes = await Promise.all([0, 1, 2, 3].map(() => call('memory-mcp', 'delete_memory', { memory_id: id })));
		expect(deletes.filter((r) => !r.isError)).toHaveLength(1);
		for (const r of deletes.filter((d) => d.isError)) expect(textOf(r)).toBe(`not_found: memory_id: ❌ Memory #${id} not found`);
		expect(sc<{ content: string }>(await call('memory-mcp', 'get_memory', { memory_id: other })).content).toBe('The dog is called Pico.');
	});

	it('codomyrmex and AiAkiv follow their seeds: put/get/search, save/chain/search/open', async () => {
		const put = JSON.parse(textOf(await call('codomyrmex', 'memory_put', { content: 'The project deadline is March 1st', importance: 'HIGH' }))) as {
			id: string;
			importance: number;
		};
		expect(put.importance).toBe(3);
		const got = JSON.parse(textOf(await call('codomyrmex', 'memory_get', { memory_id: put.id }))) as { access_count: number };
		expect(got.access_count).toBe(1);
		expect(textOf(await call('codomyrmex', 'memory_get', { memory_id: '550e8400-e29b-41d4-a716-446655440000' }))).toBe('null');
		const first = sc<{ event_id: string }>(
			await call('aiakiv', 'save_memory', { summary: 'Team chose Kafka for event streaming', content: 'Kafka over RabbitMQ for durability.' }),
		).event_id;
		await call('aiakiv', 'save_memory', { summary: 'Kafka consumer lag spiked in the release', content: 'Lag hit 2M messages.', prev_event_id: first });
		const next = await call('aiakiv', 'query_memory_graph', {
			query: 'START a = events(ids: [$id]) MATCH (a)-[:NEXT]->(b) RETURN b.summary',
			params: { id: first },
		});
		expect(sc<{ rows: unknown[] }>(next).rows).toEqual([{ 'b.summary': 'Kafka consumer lag spiked in the release' }]);
	});
});

describe('hostile calls through the relay', () => {
	it('a graph query nested 1,950 deep is a clear refusal from the tab, and the tab keeps answering', async () => {
		const r = await call('aiakiv', 'query_memory_graph', { query: 'MATCH (n) WHERE ' + '('.repeat(1950) + 'true' + ')'.repeat(1950) + ' RETURN n.id' });
		expect(textOf(r)).toMatch(/^invalid_input: query: at line 1, column \d+ \(offset \d+\): expected at most 32 nested parentheses, lists or NOTs/);
		const after = await call('aiakiv', 'query_memory_graph', { query: 'MATCH (n) RETURN count(*)' });
		expect(after.isError).toBeFalsy();
	});

	it('AutoMem: a duplicate store with new tags adds them to the kept memory in real IndexedDB, and says so', async () => {
		const content = 'Relay probe: the staging database is restored from the nightly snapshot.';
		const first = sc<{ memory_id: string }>(await call('automem', 'store_memory', { content, tags: ['staging'] }));
		const again = await call('automem', 'store_memory', { content, tags: ['staging', 'backups'], metadata: { owner: 'ops' } });
		expect(sc(again)).toMatchObject({ memory_id: first.memory_id, duplicate: true, merged_tags: ['backups'], merged_metadata: ['owner'] });
		expect(textOf(again)).toContain('its new tags "backups" and metadata keys owner were added to that memory');
		const found = await call('automem', 'recall_memory', { query: 'staging database snapshot', tags: ['backups'], format: 'json' });
		expect(textOf(found)).toContain(first.memory_id);
	});

	it('memory-mcp: replace_labels of a label the memory lacks is refused naming target; the retry of a done one succeeds', async () => {
		const { id } = sc<{ id: number }>(await call('memory-mcp', 'store_memory', { content: 'Relay probe: rotate the signing keys.', labels: 'todo' }));
		const missing = await call('memory-mcp', 'replace_labels', { memory_id: id, target: 'blocked', new: 'done' });
		expect(missing.isError).toBe(true);
		expect(textOf(missing)).toMatch(/^not_found: target: memory #\d+ has none of "blocked" \(it has: "todo"\); nothing was replaced or changed/);
		for (let i = 0; i < 2; i++)
			expect(sc<{ labels: string[] }>(await call('memory-mcp', 'replace_labels', { memory_id: id, target: 'todo', new: 'done' })).labels).toEqual([
				'done',
			]);
	});

	it('recall with an offset past any store answers an empty page on every ranking path', async () => {
		for (const args of [{ query: 'VPN config' }, {}]) {
			const r = await call('native', 'recall_memory', { ...args, offset: 1e12 });
			expect(r.isError, textOf(r)).toBeFalsy();
			expect(sc<{ results: unknown[]; has_more: boolean }>(r)).toMatchObject({ results: [], has_more: false });
		}
	});

	it('500 bad batch items make one short error through the relay', async () => {
		const r = await call('automem', 'associate_memories', { associations: Array(500).fill({ memory1_id: 1, memory2_id: 2, type: 'NOPE', strength: 'x' }) });
		expect(r.isError).toBe(true);
		expect(textOf(r).length).toBeLessThan(2_000);
		expect(textOf(r)).toMatch(/more issues like these$/);
	});
});
