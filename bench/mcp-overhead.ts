/**
 * What the engine worker spends on one relayed tool call besides the engine (issue 25): a
 * relay frame in (the envelope's JSON and schema, the session transport's JSON-RPC parse), the
 * MCP server (the SDK's request parse, input and output validation, our wrapping and rendering)
 * and the answer's envelope out as JSON text — everything `src/mcp/transports/relay-client.ts`
 * and `src/mcp/server.ts` do in the worker, over an engine that answers from a recording. The
 * answers are recorded from a real engine (Node, fake-indexeddb, the embedded model, N corpus
 * memories), so their size is the real one (a recall of 10 hits).
 *
 *   npx tsx bench/mcp-overhead.ts [--n 1000] [--calls 3000]
 *
 * Prints µs per call (median of 5 rounds, each `calls` calls in turn) for store_memory (one
 * memory) and recall_memory (limit 10), and the answer's size.
 */
// As in the engine worker (the app's CSP has no 'unsafe-eval'): zod interprets, it does not compile.
import '../src/core/zod-jitless';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createEmbedder } from '../src/engine/embedder';
import { createEngine } from '../src/engine/engine';
import { nodeModelPath } from '../src/engine/node-model-path';
import type { EngineApi } from '../src/engine/types';
import { createMemoryServer } from '../src/mcp/server';
import { RelaySessionTransport } from '../src/mcp/transports/relay-client';
import { parseEnvelope, ToTabSchema, type FromTab } from '../src/mcp/transports/relay-protocol';
import { Corpus } from './lib/corpus';
import { percentile, round } from './lib/stats';

const arg = (name: string, dflt: number) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 1000);
const CALLS = arg('calls', 3000);
const ROUNDS = 5;

async function main(): Promise<void> {
	const corpus = new Corpus(25);
	const engine = await createEngine({
		dbName: `bench-overhead-${process.pid}`,
		indexedDB: new IDBFactory(),
		IDBKeyRange,
		embedder: await createEmbedder({ localModelPath: nodeModelPath() }),
		snapshotDelayMs: 3_600_000,
	});
	for (let i = 0; i < N; i += 500)
		await engine.store({ memories: Array.from({ length: Math.min(500, N - i) }, (_, j) => ({ content: corpus.memory(i + j).content })) });
	const query = corpus.queryFor(corpus.memory(7));
	const recorded = {
		store: await engine.store({ content: corpus.memory(N + 1).content }),
		recall: await engine.recall({ query, limit: 10 }),
	};
	console.error(
		`recorded: store ${JSON.stringify(recorded.store).length} B, recall ${recorded.recall.results.length} hits, ${JSON.stringify(recorded.recall).length} B`,
	);
	await engine.close();
	// The engine answers from the recording (a fresh copy, as comlink or the engine would give).
	const replay = new Proxy({} as EngineApi, {
		get: (_, name) => {
			if (name === 'store') return async () => structuredClone(recorded.store);
			if (name === 'recall') return async () => structuredClone(recorded.recall);
			return undefined;
		},
	});
	let answered: (text: string) => void = () => {};
	const transport = new RelaySessionTransport({ sid: 's1', kind: 'stdio', profile: 'native', client: { name: 'bench' } }, (env: FromTab) =>
		answered(JSON.stringify(env)),
	);
	await createMemoryServer(replay, 'native', { actor: 'bench' }).connect(transport);
	let id = 0;
	/** One frame in, as the relay sends it; resolves with the answer's frame text. */
	const frame = (m: Record<string, unknown>) =>
		new Promise<string>((resolve) => {
			answered = resolve;
			const env = parseEnvelope(ToTabSchema, JSON.stringify({ t: 'msg', sid: 's1', m: { jsonrpc: '2.0', id: ++id, ...m } }));
			if (env instanceof Error || env.t !== 'msg') throw env;
			transport.receive(env.m);
		});
	await frame({ method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
	transport.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
	const cases: [string, (i: number) => Record<string, unknown>][] = [
		[
			'store_memory',
			(i) => ({ method: 'tools/call', params: { name: 'store_memory', arguments: { content: corpus.memory(N + 2 + (i % 1000)).content } } }),
		],
		['recall_memory', () => ({ method: 'tools/call', params: { name: 'recall_memory', arguments: { query, limit: 10 } } })],
	];
	const out: Record<string, { us_per_call: number; rounds: number[]; answer_bytes: number }> = {};
	for (const [name] of cases) out[name] = { us_per_call: 0, rounds: [], answer_bytes: 0 };
	for (let r = 0; r < ROUNDS + 1; r++)
		for (const [name, make] of cases) {
			let bytes = 0;
			const t = performance.now();
			for (let i = 0; i < CALLS; i++) bytes = (await frame(make(i))).length;
			const us = ((performance.now() - t) * 1000) / CALLS;
			if (r > 0) out[name].rounds.push(round(us, 1)); // round 0 warms up
			out[name].answer_bytes = bytes;
		}
	for (const o of Object.values(out)) o.us_per_call = round(percentile(o.rounds, 50), 1);
	console.log(JSON.stringify(out));
}

main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
