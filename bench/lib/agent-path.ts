/**
 * The agent's path, side by side with a peer (`npm run bench -- --peers`, issue 25): one MCP SDK
 * client process talks to Engram through the real `engram-relay` (spawned over stdio, paired with
 * the built app in headless Chromium) and to `@modelcontextprotocol/server-memory` (spawned over
 * stdio, a JSONL file in a temp dir). Both get the same N memories in batches of 500, then 200
 * single stores and 200 searches, alternating between the two systems call by call.
 *
 * Then a per-hop breakdown of single calls: the client's send and answer, the relay's four points
 * (`ENGRAM_RELAY_TRACE=1`, relay/trace.ts), and in Chromium the WebSocket frames and the worker's
 * messages stamped by a bench-only init script (the page) and `worker.evaluate` (the worker).
 * Since the relay's socket ends in the engine worker (src/mcp/relay-host.ts), its frames are
 * stamped there (the bench pairs the tab again once its hooks are in, so the socket is opened by
 * the hooked WebSocket) and the whole tab span is the worker's (`served_in: 'worker'`), split by a probe on the relayed
 * sessions' engine (relay-host.ts `__engramEngineProbe`) into the MCP layer in (envelope, JSON-RPC,
 * SDK, input validation), the engine calls, and the MCP layer out (bounding, rendering, output
 * validation, JSON; the socket's own send counts in the WebSocket span). All
 * stamps are wall-clock milliseconds (`performance.timeOrigin + now()`); the spans that matter
 * are also given clock-free (each process's span minus the span of the one it waits on).
 * `AGENT_PATH_DEBUG=1` prints every traced call's raw stamps to stderr (with the engine method of
 * each page → worker message) and when the timed searches over 20 ms came; `AGENT_PATH_PROFILE=/tmp/x`
 * writes CPU profiles of the page's workers over the timed searches and over the traced batches. For a batch, `worker starts` can come late (the worker is
 * busy in the store before the bench's listener stamps it), so read page → worker + worker together.
 *
 * Then what the open app's refresh after an agent's write costs the worker (`ui_refresh`).
 *
 * Last, the concurrency phase: 100 calls per client (a store, then a search, alternating) from
 * one client, then from 4 at once (this stdio client, a second relay process joining the first
 * over stdio, and 2 clients on the relay's Streamable HTTP endpoint): calls per second and the
 * scaling between the two.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page, Worker } from 'playwright-core';
import { ROOT } from '../../test/e2e/helpers';
import { spawnRelayClient } from '../../test/unit/relay/helpers';
import { Corpus } from './corpus';
import { pairedApp } from './paired-app';
import { percentile, round } from './stats';

const BATCH = 500;
const CALLS = 200;
const WARMUP = 5;
const TRACED = 30;
/** Batches of 500 traced after the single calls (where a fill's time goes). */
const TRACED_BATCHES = 3;
/** Calls each client makes in the concurrency phase (stores and searches, alternating). */
const CONCURRENT_CALLS = 100;

/** One system's figures. */
export interface SystemFigures {
	fill_s: number;
	store_p50_ms: number;
	store_p99_ms: number;
	recall_p50_ms: number;
	recall_p99_ms: number;
	/** Median size of a search answer (the whole CallToolResult as JSON), bytes. */
	recall_bytes_p50: number;
}

/** Medians over the traced calls of one tool, ms. */
export interface HopBreakdown {
	calls: number;
	/** Stamps relative to the client's send (medians of each). */
	at: Record<string, number>;
	/** Clock-free spans: each process's own time minus the time it waited on the next. */
	spans: Record<string, number>;
	/** Engine calls (main thread → worker) per tool call, median (0 when the worker serves the call). */
	worker_calls: number;
	/**
	 * Where the tab served the call: `worker` when the relay's WebSocket ends in the engine worker
	 * (the spans' `worker (engine)` is then the MCP server and the engine together, and the main
	 * thread and comlink spans are 0), `page` when it ends on the main thread.
	 */
	served_in: 'worker' | 'page';
}

/** The `agent_path` section of the bench JSON. */
export interface AgentPathResult {
	n: number;
	engram: SystemFigures;
	server_memory: SystemFigures;
	/** server-memory's figure over Engram's (above 1: Engram is faster). */
	ratios: { store_p50: number; store_p99: number; recall_p50: number; recall_p99: number; fill: number };
	hops: { store: HopBreakdown; recall: HopBreakdown; store_batch: HopBreakdown } | null;
	/** 4 MCP clients at once (2 over stdio through the relay, 2 over its HTTP endpoint) vs 1. */
	concurrency: ConcurrencyFigures | null;
	/**
	 * What the open app's refresh after an agent's write asks of the engine worker (state/live.svelte.ts:
	 * the sidebar's and the list's counts, and the list's first page), ms from the page, medians of
	 * 10: an agent's call arriving meanwhile waits behind it. `refresh_ms` is the whole refresh as
	 * the page asks it (both counts and the page at once). `timeline_after_write_ms` is the first
	 * page right after a store (the page's engine stores one memory before each), timed from the page
	 * like the rest: it includes the app's own refresh and repaint reacting to that store (the answer
	 * waits for the page's main thread), so it reads high on a busy host. The worker reads only the
	 * new row from IndexedDB; it keeps the rest of the page (browse-ops.ts), as in `timeline_ms`.
	 */
	ui_refresh: { stats_ms: number; timeline_ms: number; refresh_ms: number; timeline_after_write_ms?: number } | null;
}

/** One run of the concurrency phase: every client's calls, all clients at once. */
export interface LoadFigures {
	clients: number;
	calls: number;
	wall_s: number;
	calls_per_s: number;
	p50_ms: number;
	p99_ms: number;
}

/** The concurrency phase: the same calls per client, from 1 client and from 4 at once. */
export interface ConcurrencyFigures {
	calls_per_client: number;
	one: LoadFigures;
	four: LoadFigures & { stdio_p50_ms: number; http_p50_ms: number };
	/** four.calls_per_s / one.calls_per_s: 4 means perfect scaling, 1 none. */
	scaling: number;
}

type Call = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

function caller(client: Client): Call {
	return async (name, args) => {
		const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
		if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 300)}`);
		return r;
	};
}

const now = () => performance.timeOrigin + performance.now();

/**
 * Page-side stamps, bench only (a string so no bundler helper leaks into the page): WebSocket
 * frames in and out, and messages to and from the engine worker, while `__hop.on` is set.
 */
const PAGE_HOOKS = `(() => {
	const hop = (globalThis.__hop = { on: false, ev: [] });
	const stamp = (k, what) => { if (hop.on) hop.ev.push([k, performance.timeOrigin + performance.now(), what]); };
	const WS = globalThis.WebSocket;
	globalThis.WebSocket = class extends WS {
		constructor(...a) { super(...a); this.addEventListener('message', () => stamp('tab-recv')); }
		send(d) { stamp('tab-send'); return super.send(d); }
	};
	const W = globalThis.Worker;
	globalThis.Worker = class extends W {
		constructor(...a) { super(...a); this.addEventListener('message', () => stamp('main-from-worker')); }
		postMessage(...a) { stamp('main-to-worker', a[0] && Array.isArray(a[0].path) ? a[0].path.join('.') : undefined); return super.postMessage(...a); }
	};
})()`;

/**
 * Worker-side stamps: a capturing listener runs before comlink's, postMessage is its answer; and
 * the relay's WebSocket frames, when the worker holds that socket (a socket opened after these
 * hooks, see `rehook`).
 */
const WORKER_HOOKS = `(() => {
	if (self.__hop) return;
	const hop = (self.__hop = { on: false, ev: [] });
	const stamp = (k) => { if (hop.on) hop.ev.push([k, performance.timeOrigin + performance.now()]); };
	self.addEventListener('message', () => stamp('worker-start'), { capture: true });
	self.__engramEngineProbe = (k) => stamp(k);
	const post = self.postMessage.bind(self);
	self.postMessage = (...a) => { stamp('worker-end'); return post(...a); };
	const WS = self.WebSocket;
	if (WS) self.WebSocket = class extends WS {
		constructor(...a) { super(...a); this.addEventListener('message', () => stamp('ws-recv')); }
		send(d) { stamp('ws-send'); return super.send(d); }
	};
})()`;

type Ev = [string, number];

/** Engram in Chromium behind the relay, with the relay's trace on. */
async function startEngram(log: (s: string) => void) {
	const app = await pairedApp({ clientName: 'engram-bench', env: { ENGRAM_RELAY_TRACE: '1' }, initScript: PAGE_HOOKS, what: 'agent path' });
	const { server, page, desk, port, token, home } = app;
	log('agent path: Engram tab paired with engram-relay');
	const extra: (() => Promise<void>)[] = [];
	/** One more desktop client: a second relay process joining the first over stdio. */
	const stdioClient = async (name: string) => {
		const c = await spawnRelayClient(['--port', String(port), '--token', token, '--app-url', server.url], { ENGRAM_RELAY_HOME: home.dir }, name);
		extra.push(() => c.close());
		return caller(c.client);
	};
	/** One more client over the relay's Streamable HTTP endpoint. */
	const httpClient = async (name: string) => {
		const client = new Client({ name, version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
		);
		extra.push(() => client.close());
		return caller(client);
	};
	const closeAll = async () => {
		for (const x of extra) await x().catch(() => {});
		await app.close();
	};
	return { call: caller(desk.client), page, log: desk.log, close: closeAll, stdioClient, httpClient, port, token };
}

/** server-memory over stdio, its JSONL file in a temp dir. */
async function startPeer() {
	const dir = mkdtempSync(join(tmpdir(), 'engram-peer-'));
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
		env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
		stderr: 'pipe',
		cwd: ROOT,
	});
	const client = new Client({ name: 'engram-bench', version: '1.0.0' });
	await client.connect(transport);
	return {
		call: caller(client),
		async close() {
			await client.close().catch(() => {});
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
	const t = performance.now();
	const r = await fn();
	return [performance.now() - t, r];
}

const p = (xs: number[], q: number) => round(percentile(xs, q));
const median = (xs: number[]) => (xs.length ? percentile(xs, 50) : NaN);

/** Groups the stamps of one traced call into the breakdown's points. */
function hopsOf(t0: number, t1: number, relay: Ev[], tab: Ev[], worker: Ev[]) {
	const first = (evs: Ev[], k: string) => evs.find((e) => e[0] === k)?.[1] ?? NaN;
	const last = (evs: Ev[], k: string) => evs.findLast((e) => e[0] === k)?.[1] ?? NaN;
	// The relay's socket ends in the worker (relay-host.ts) or, in builds before it, on the page.
	const inWorker = worker.some((e) => e[0] === 'ws-recv');
	const tabRecv = inWorker ? first(worker, 'ws-recv') : first(tab, 'tab-recv');
	const tabSend = inWorker ? last(worker, 'ws-send') : last(tab, 'tab-send');
	// Worker messages inside the tab's handling of the call (later ones are the UI's reactions).
	const inCall = (e: Ev) => e[1] >= tabRecv && e[1] <= tabSend;
	const wk = worker.filter((e) => inCall(e) && (e[0] === 'worker-start' || e[0] === 'worker-end'));
	// Engine calls the relayed session made (relay-host.ts's probe): the rest of the worker's span
	// is the MCP layer (envelope, JSON-RPC, SDK, validation, rendering, JSON, the socket's send).
	let engineMs = 0;
	let engineCalls = 0;
	for (let i = 0, start = NaN, depth = 0; i < worker.length; i++) {
		if (!inCall(worker[i])) continue;
		if (worker[i][0] === 'engine-start' && depth++ === 0) start = worker[i][1];
		else if (worker[i][0] === 'engine-end' && --depth === 0) {
			engineMs += worker[i][1] - start;
			engineCalls++;
		}
	}
	let workerBusy = 0;
	for (let i = 0, start = NaN; i < wk.length; i++) {
		if (wk[i][0] === 'worker-start') start = wk[i][1];
		else if (!Number.isNaN(start)) {
			workerBusy += wk[i][1] - start;
			start = NaN;
		}
	}
	const at: Record<string, number> = {
		'relay stdin': first(relay, 'stdin'),
		'relay → tab': first(relay, 'to-tab'),
		'tab receives': tabRecv,
		'tab → worker': first(tab.filter(inCall), 'main-to-worker'),
		'worker starts': inWorker ? tabRecv : first(wk, 'worker-start'),
		'worker ends': inWorker ? tabSend : last(wk, 'worker-end'),
		'tab gets answer': last(tab.filter(inCall), 'main-from-worker'),
		'tab sends': tabSend,
		'relay from tab': last(relay, 'from-tab'),
		'relay stdout': last(relay, 'stdout'),
		'client has answer': t1,
	};
	for (const k of Object.keys(at)) at[k] -= t0;
	const relaySpan = at['relay stdout'] - at['relay stdin'];
	const wsRtt = at['relay from tab'] - at['relay → tab'];
	const tabSpan = at['tab sends'] - at['tab receives'];
	// Page and worker share the renderer's clock: postMessage → handler, and back.
	const messages = inWorker ? 0 : at['worker starts'] - at['tab → worker'] + (at['tab gets answer'] - at['worker ends']);
	const spans: Record<string, number> = {
		total: t1 - t0,
		'client + stdio (SDK, pipes)': t1 - t0 - relaySpan,
		'relay (parse, route, stringify)': relaySpan - wsRtt,
		'WebSocket (both ways)': wsRtt - tabSpan,
		'tab main thread (MCP server, JSON, zod)': inWorker ? 0 : tabSpan - messages - workerBusy,
		'page ⇄ worker messages (comlink)': messages,
		'worker (engine)': inWorker ? tabSpan : workerBusy,
	};
	if (inWorker && engineCalls > 0) {
		spans['worker: MCP layer in'] = first(worker, 'engine-start') - tabRecv;
		spans['worker: engine calls'] = engineMs;
		spans['worker: MCP layer out'] = tabSpan - spans['worker: MCP layer in'] - engineMs;
	}
	return { at, spans, workerCalls: wk.filter((e) => e[0] === 'worker-start').length, inWorker };
}

/**
 * Pairs the tab again (the same relay and token), so a relay socket the worker holds is opened
 * anew by the hooked WebSocket; then waits until a call goes through. A page-side socket is
 * re-opened too, which changes nothing for the page's hooks (installed before it loaded).
 */
async function rehook(engram: Awaited<ReturnType<typeof startEngram>>): Promise<void> {
	type Host = { engramMcpHost: { pairRelay(u: string, t: string): Promise<void>; relay(): { connection?: { status: string; sessions: number } } } };
	await engram.page.evaluate(([u, t]) => (globalThis as unknown as Host).engramMcpHost.pairRelay(u, t), [`ws://127.0.0.1:${engram.port}`, engram.token]);
	await engram.page.waitForFunction(() => {
		const c = (globalThis as unknown as Host).engramMcpHost.relay().connection;
		return c?.status === 'connected' && c.sessions > 0;
	});
	await engram.call('recall_memory', { query: 'warm-up after re-pairing', limit: 1 });
}

/** Runs `calls` traced calls one by one and returns the medians of every point and span. */
async function traceCalls(
	engram: Awaited<ReturnType<typeof startEngram>>,
	make: (i: number) => [string, Record<string, unknown>],
	calls = TRACED,
): Promise<HopBreakdown> {
	const worker: Worker | undefined = engram.page.workers().find((w) => w.url().includes('engine'));
	if (worker && (await worker.evaluate(`(() => { const had = !!self.__hop; ${WORKER_HOOKS}; return !had; })()`))) await rehook(engram);
	const setOn = async (on: boolean) => {
		await engram.page.evaluate(`(globalThis.__hop.on = ${on}, globalThis.__hop.ev = ${on ? '[]' : 'globalThis.__hop.ev'}, 0)`);
		if (worker) await worker.evaluate(`(self.__hop.on = ${on}, self.__hop.ev = ${on ? '[]' : 'self.__hop.ev'}, 0)`);
	};
	const rows: ReturnType<typeof hopsOf>[] = [];
	for (let i = 0; i < calls; i++) {
		const [name, args] = make(i);
		await setOn(true);
		const logFrom = engram.log().length;
		const t0 = now();
		await engram.call(name, args);
		const t1 = now();
		await new Promise((r) => setTimeout(r, 20));
		await setOn(false);
		const relay = [
			...engram
				.log()
				.slice(logFrom)
				.matchAll(/engram-relay trace (\S+) ([\d.]+)/g),
		].map((m) => [m[1], Number(m[2])] as Ev);
		const tab = (await engram.page.evaluate('globalThis.__hop.ev')) as Ev[];
		const wk = worker ? ((await worker.evaluate('self.__hop.ev')) as Ev[]) : [];
		rows.push(hopsOf(t0, t1, relay, tab, wk));
		if (process.env.AGENT_PATH_DEBUG) console.error(JSON.stringify({ t0, t1, relay, tab, wk }));
		await new Promise((r) => setTimeout(r, 50));
	}
	const med = (pick: (r: ReturnType<typeof hopsOf>) => Record<string, number>) =>
		Object.fromEntries(Object.keys(pick(rows[0])).map((k) => [k, round(median(rows.map((r) => pick(r)[k]).filter((x) => !Number.isNaN(x))))]));
	return {
		calls: rows.length,
		at: med((r) => r.at),
		spans: med((r) => r.spans),
		worker_calls: median(rows.map((r) => r.workerCalls)),
		served_in: rows.some((r) => r.inWorker) ? 'worker' : 'page',
	};
}

/**
 * Each client makes `calls` calls one after another (a store, then a search, alternating), all
 * clients at once; returns the wall time and every call's latency, by client.
 */
async function load(clients: Call[], calls: number, text: () => string, query: (i: number) => string): Promise<{ wall: number; ms: number[][] }> {
	const t0 = performance.now();
	const ms = await Promise.all(
		clients.map(async (call, c) => {
			const out: number[] = [];
			for (let i = 0; i < calls; i++) {
				const t = performance.now();
				if (i % 2 === 0) await call('store_memory', { content: text() });
				else await call('recall_memory', { query: query(c * calls + i), limit: 10 });
				out.push(performance.now() - t);
			}
			return out;
		}),
	);
	return { wall: performance.now() - t0, ms };
}

/**
 * Times the engine calls the app's live refresh makes (see `AgentPathResult.ui_refresh`), from the
 * page (a string, as the hooks are, so no bundler helper leaks into the page).
 */
const REFRESH_COST = `(async () => {
	const engine = globalThis.__engram;
	const time = async (fn) => { const t = performance.now(); await fn(); return performance.now() - t; };
	const out = [[], [], [], []];
	for (let i = 0; i < 10; i++) {
		out[0].push(await time(() => engine.stats({})));
		out[1].push(await time(() => engine.timeline({ offset: 0, limit: 100 })));
		out[2].push(await time(() => Promise.all([engine.stats({}), engine.storageFull(), engine.timeline({ offset: 0, limit: 100 }), engine.stats({})])));
		await new Promise((r) => setTimeout(r, 20));
	}
	// The first page as the list reads it after an agent's write: one memory new, the rest as before.
	for (let i = 0; i < 10; i++) {
		await engine.store({ content: 'The refresh probe wrote note ' + i + ' after the timed calls.' });
		out[3].push(await time(() => engine.timeline({ offset: 0, limit: 100 })));
		await new Promise((r) => setTimeout(r, 20));
	}
	return out;
})()`;

async function refreshCost(page: Page): Promise<NonNullable<AgentPathResult['ui_refresh']>> {
	const ms = (await page.evaluate(REFRESH_COST)) as number[][];
	return {
		stats_ms: round(median(ms[0])),
		timeline_ms: round(median(ms[1])),
		refresh_ms: round(median(ms[2])),
		timeline_after_write_ms: round(median(ms[3])),
	};
}

/** The concurrency phase: 1 client, then 2 stdio + 2 HTTP clients at once, the same calls each. */
async function concurrency(engram: Awaited<ReturnType<typeof startEngram>>, text: () => string, query: (i: number) => string): Promise<ConcurrencyFigures> {
	const clients = [
		engram.call,
		await engram.stdioClient('engram-bench-2'),
		await engram.httpClient('engram-bench-http-1'),
		await engram.httpClient('engram-bench-http-2'),
	];
	// Warm every connection (its McpServer, the HTTP session) before timing.
	for (const call of clients) await call('recall_memory', { query: query(0), limit: 10 });
	const figures = (r: { wall: number; ms: number[][] }): LoadFigures => {
		const all = r.ms.flat();
		return {
			clients: r.ms.length,
			calls: all.length,
			wall_s: round(r.wall / 1000, 2),
			calls_per_s: round(all.length / (r.wall / 1000), 1),
			p50_ms: p(all, 50),
			p99_ms: p(all, 99),
		};
	};
	const one = figures(await load(clients.slice(0, 1), CONCURRENT_CALLS, text, query));
	const r4 = await load(clients, CONCURRENT_CALLS, text, query);
	const four = { ...figures(r4), stdio_p50_ms: p(r4.ms.slice(0, 2).flat(), 50), http_p50_ms: p(r4.ms.slice(2).flat(), 50) };
	return { calls_per_client: CONCURRENT_CALLS, one, four, scaling: round(four.calls_per_s / one.calls_per_s, 2) };
}

/**
 * Runs `fn` with a CPU profile of the page's workers when `AGENT_PATH_PROFILE` names a file
 * prefix (each worker's profile goes to PREFIX-PHASE-K.cpuprofile, for DevTools).
 */
async function profiled<T>(page: Page, phase: string, fn: () => Promise<T>): Promise<T> {
	const prefix = process.env.AGENT_PATH_PROFILE;
	if (!prefix) return fn();
	const cdp = await page.context().newCDPSession(page);
	const workers: string[] = [];
	cdp.on('Target.attachedToTarget', (e) => void (e.targetInfo.type === 'worker' && workers.push(e.sessionId)));
	let id = 0;
	const pending = new Map<number, (r: unknown) => void>();
	cdp.on('Target.receivedMessageFromTarget', (e) => {
		const m = JSON.parse(e.message) as { id?: number; result?: unknown };
		if (m.id !== undefined) pending.get(m.id)?.(m.result);
	});
	const send = (sessionId: string, method: string, params: object = {}) =>
		new Promise<unknown>((resolve) => {
			pending.set(++id, resolve);
			void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
		});
	await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
	await new Promise((r) => setTimeout(r, 300));
	for (const w of workers) await send(w, 'Profiler.enable').then(() => send(w, 'Profiler.start'));
	try {
		return await fn();
	} finally {
		for (const [k, w] of workers.entries()) {
			const r = (await send(w, 'Profiler.stop')) as { profile: unknown };
			writeFileSync(`${prefix}-${phase}-${k}.cpuprofile`, JSON.stringify(r.profile));
		}
		await cdp.detach();
	}
}

/** The whole comparison at `n` memories. */
export async function runAgentPath(n: number, log: (s: string) => void): Promise<AgentPathResult> {
	const corpus = new Corpus(25);
	const texts = Array.from(
		{ length: n + 2 * CALLS + 2 * WARMUP + TRACED + TRACED_BATCHES * BATCH + 5 * CONCURRENT_CALLS },
		(_, i) => corpus.memory(i).content,
	);
	// A search an agent would make: a person named in some stored memory ("X mentioned ticket").
	const queries = Array.from({ length: CALLS + WARMUP + TRACED }, (_, i) => /(\S+) mentioned ticket/.exec(texts[(i * 7919) % n])![1]);
	const engram = await startEngram(log);
	let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
	try {
		peer = await startPeer();
		const sys = {
			engram: {
				store: (i: number) => engram.call('store_memory', { content: texts[i] }),
				fill: (from: number, to: number) => engram.call('store_memory', { memories: texts.slice(from, to).map((content) => ({ content })) }),
				search: (q: string) => engram.call('recall_memory', { query: q, limit: 10 }),
			},
			server_memory: {
				store: (i: number) => peer!.call('create_entities', { entities: [{ name: `memory-${i}`, entityType: 'memory', observations: [texts[i]] }] }),
				fill: (from: number, to: number) =>
					peer!.call('create_entities', {
						entities: texts.slice(from, to).map((t, j) => ({ name: `memory-${from + j}`, entityType: 'memory', observations: [t] })),
					}),
				search: (q: string) => peer!.call('search_nodes', { query: q }),
			},
		};
		type Name = keyof typeof sys;
		const names: Name[] = ['engram', 'server_memory'];
		const fill: Record<Name, number> = { engram: 0, server_memory: 0 };
		// Fill: batches alternate between the systems too.
		for (let from = 0; from < n; from += BATCH) {
			for (const s of names) fill[s] += (await timed(() => sys[s].fill(from, Math.min(n, from + BATCH))))[0];
			if ((from / BATCH) % 4 === 3) log(`agent path: filled ${from + BATCH} of ${n}`);
		}
		const stores: Record<Name, number[]> = { engram: [], server_memory: [] };
		const searches: Record<Name, number[]> = { engram: [], server_memory: [] };
		const bytes: Record<Name, number[]> = { engram: [], server_memory: [] };
		let next = n;
		for (let i = 0; i < WARMUP; i++) for (const s of names) await sys[s].store(next++);
		for (let i = 0; i < WARMUP; i++) for (const s of names) await sys[s].search(queries[CALLS + i]);
		// Alternating call by call; the first system swaps each round.
		for (let i = 0; i < CALLS; i++) for (const s of i % 2 ? [...names].reverse() : names) stores[s].push((await timed(() => sys[s].store(next++)))[0]);
		const t0 = performance.now();
		const at: number[] = [];
		await profiled(engram.page, 'search', async () => {
			for (let i = 0; i < CALLS; i++)
				for (const s of i % 2 ? [...names].reverse() : names) {
					if (s === 'engram') at.push(performance.now() - t0);
					const [ms, r] = await timed(() => sys[s].search(queries[i]));
					searches[s].push(ms);
					bytes[s].push(JSON.stringify(r).length);
				}
		});
		// Where the slow searches fall (ms since the first search; the stores ended just before).
		if (process.env.AGENT_PATH_DEBUG)
			log(
				`agent path: engram searches over 20 ms at ${searches.engram.flatMap((ms, i) => (ms > 20 ? [`${round(at[i], 0)} ms (${round(ms)})`] : [])).join(', ')}`,
			);
		const figures = (s: Name): SystemFigures => ({
			fill_s: round(fill[s] / 1000, 2),
			store_p50_ms: p(stores[s], 50),
			store_p99_ms: p(stores[s], 99),
			recall_p50_ms: p(searches[s], 50),
			recall_p99_ms: p(searches[s], 99),
			recall_bytes_p50: Math.round(median(bytes[s])),
		});
		const e = figures('engram');
		const m = figures('server_memory');
		log('agent path: tracing single calls hop by hop');
		let hops: AgentPathResult['hops'] = null;
		try {
			hops = {
				store: await traceCalls(engram, () => ['store_memory', { content: texts[next++] }]),
				recall: await traceCalls(engram, (i) => ['recall_memory', { query: queries[CALLS + WARMUP + i], limit: 10 }]),
				store_batch: await profiled(engram.page, 'batch', () =>
					traceCalls(
						engram,
						() => ['store_memory', { memories: texts.slice(next, (next += BATCH)).map((content) => ({ content })) }],
						TRACED_BATCHES,
					),
				),
			};
		} catch (err) {
			log(`agent path: the hop breakdown failed: ${(err as Error).message}`);
		}
		let uiRefresh: AgentPathResult['ui_refresh'] = null;
		try {
			uiRefresh = await refreshCost(engram.page);
		} catch (err) {
			log(`agent path: the UI refresh cost failed: ${(err as Error).message}`);
		}
		log('agent path: 4 clients at once (2 stdio, 2 HTTP) vs 1');
		let conc: ConcurrencyFigures | null = null;
		try {
			conc = await concurrency(
				engram,
				() => texts[next++],
				(i) => queries[i % queries.length],
			);
		} catch (err) {
			log(`agent path: the concurrency phase failed: ${(err as Error).message}`);
		}
		const r = (a: number, b: number) => round(a / b, 2);
		return {
			n,
			engram: e,
			server_memory: m,
			ratios: {
				store_p50: r(m.store_p50_ms, e.store_p50_ms),
				store_p99: r(m.store_p99_ms, e.store_p99_ms),
				recall_p50: r(m.recall_p50_ms, e.recall_p50_ms),
				recall_p99: r(m.recall_p99_ms, e.recall_p99_ms),
				fill: r(m.fill_s, e.fill_s),
			},
			hops,
			concurrency: conc,
			ui_refresh: uiRefresh,
		};
	} finally {
		await peer?.close();
		await engram.close();
	}
}

/** The human table for the agent path. */
export function agentPathTable(a: AgentPathResult): string {
	const rows: string[][] = [
		[
			'store one memory, p50 / p99 ms',
			`${a.engram.store_p50_ms} / ${a.engram.store_p99_ms}`,
			`${a.server_memory.store_p50_ms} / ${a.server_memory.store_p99_ms}`,
			`${a.ratios.store_p50}× / ${a.ratios.store_p99}×`,
		],
		[
			'search, p50 / p99 ms',
			`${a.engram.recall_p50_ms} / ${a.engram.recall_p99_ms}`,
			`${a.server_memory.recall_p50_ms} / ${a.server_memory.recall_p99_ms}`,
			`${a.ratios.recall_p50}× / ${a.ratios.recall_p99}×`,
		],
		['search answer, bytes p50', String(a.engram.recall_bytes_p50), String(a.server_memory.recall_bytes_p50), ''],
		[`fill ${a.n} in batches of ${BATCH}, s`, String(a.engram.fill_s), String(a.server_memory.fill_s), `${a.ratios.fill}×`],
	];
	const head = [`agent path at ${a.n}`, 'Engram via relay', 'server-memory stdio', 'ratio'];
	const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (r: string[]) => r.map((c, i) => c.padEnd(w[i])).join('  ');
	const out = [line(head), w.map((x) => '-'.repeat(x)).join('  '), ...rows.map(line)];
	const c = a.concurrency;
	if (c)
		out.push(
			'',
			`${c.calls_per_client} calls per client (store, search alternating): 1 client ${c.one.calls_per_s} calls/s (p50 ${c.one.p50_ms} ms, p99 ${c.one.p99_ms}); ` +
				`4 at once (2 stdio, 2 HTTP) ${c.four.calls_per_s} calls/s (p50 ${c.four.p50_ms} ms, p99 ${c.four.p99_ms}; stdio p50 ${c.four.stdio_p50_ms}, HTTP p50 ${c.four.http_p50_ms}): scaling ${c.scaling}×`,
		);
	if (a.ui_refresh)
		out.push(
			'',
			`the app's refresh after an agent's write, in the worker: stats ${a.ui_refresh.stats_ms} ms, timeline page ${a.ui_refresh.timeline_ms} ms, the whole refresh ${a.ui_refresh.refresh_ms} ms, the page after a write ${a.ui_refresh.timeline_after_write_ms} ms`,
		);
	if (a.hops)
		for (const [tool, h] of Object.entries(a.hops)) {
			out.push('', `${tool}: one call hop by hop (median of ${h.calls}; ms since the client's send; ${h.worker_calls} engine call(s))`);
			out.push(
				Object.entries(h.at)
					.map(([k, v]) => `  ${k} ${v}`)
					.join('\n'),
			);
			out.push(
				`  spans: ${Object.entries(h.spans)
					.map(([k, v]) => `${k} ${v}`)
					.join(', ')}`,
			);
		}
	return out.join('\n');
}
