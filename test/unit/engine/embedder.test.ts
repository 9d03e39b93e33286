import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize as normalizePath, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeStaticModel } from '../../../scripts/build-model';
import { isMemoryError } from '../../../src/core/errors';
import { dot, norm } from '../../../src/core/vector';
import {
	createEmbedder,
	DEFAULT_MODEL_ID,
	loadStaticParts,
	readOnnxInitializers,
	staticEmbedder,
	staticPartsBuffers,
	type Embedder,
	type EmbedderProgress,
} from '../../../src/engine/embedder';
import { nodeModelPath } from '../../../src/engine/node-model-path';
import { PARAPHRASE_FIXTURE, paraphraseFigures, queryFigures } from '../../../bench/lib/model-quality';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const fixture = PARAPHRASE_FIXTURE;
const sentences = [...new Set([...fixture.paraphrase.flat(), ...fixture.unrelated.flat()])];
const edgeCases = [
	"It's the user's favourite: don't change it!",
	'ALL CAPS SENTENCE ABOUT THE DATABASE',
	'Café menus in Zürich list prices in francs',
	'zzqxv PostgreSQL qqqyx',
	'  leading and trailing spaces  ',
	'one',
	'The the the the the the the the the the',
	'billing database '.repeat(300),
	// Longer than model_max_length (8192 tokens): both paths must truncate at the same place, dropping the cats.
	`${'billing '.repeat(8192)}${'cat '.repeat(2000)}`,
];

let fast: Embedder;
let viaPipeline: Embedder;

beforeAll(async () => {
	// `npm test` builds the model first; this covers a bare `npx vitest run`.
	if (!existsSync(join(nodeModelPath(), DEFAULT_MODEL_ID, 'onnx', 'model.onnx'))) {
		const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-model.mjs')], { cwd: ROOT, stdio: 'inherit' });
		if (r.status !== 0) throw new Error('building the embedded model failed');
	}
	fast = await createEmbedder({ localModelPath: nodeModelPath() });
	viaPipeline = await createEmbedder({ localModelPath: nodeModelPath(), fast: false });
});

afterAll(async () => {
	await fast?.dispose?.();
	await viaPipeline?.dispose?.();
});

describe('the embedded static model', () => {
	it('loads through the fast path by default and through the pipeline with fast: false', () => {
		expect(fast.modelId).toBe(DEFAULT_MODEL_ID);
		expect(fast.dims).toBe(100);
		expect(fast.path).toBe('fast');
		expect(viaPipeline.modelId).toBe(DEFAULT_MODEL_ID);
		expect(viaPipeline.dims).toBe(100);
		expect(viaPipeline.path).toBe('pipeline');
	});

	it('gives the same unit vectors on both paths (to 1e-7 per component)', async () => {
		const texts = [...sentences, ...edgeCases];
		const [a, b] = await Promise.all([fast.embed(texts), viaPipeline.embed(texts)]);
		expect(a).toHaveLength(texts.length);
		let maxDiff = 0;
		texts.forEach((t, i) => {
			const x = a[i];
			const y = b[i];
			expect(x === null, `null-ness differs for "${t}"`).toBe(y === null);
			if (!x || !y) return;
			expect(x).toBeInstanceOf(Float32Array);
			expect(x.length).toBe(100);
			expect(norm(x)).toBeCloseTo(1, 6);
			for (let k = 0; k < x.length; k++) maxDiff = Math.max(maxDiff, Math.abs(x[k] - y[k]));
		});
		expect(a.filter((v) => v === null)).toHaveLength(0);
		const [billing] = await fast.embed(['billing']);
		expect(dot(a.at(-1)!, billing!)).toBeCloseTo(1, 6);
		console.log(`fast path vs pipeline: max |Δ| per component ${maxDiff.toExponential(2)} over ${texts.length} texts`);
		expect(maxDiff).toBeLessThan(1e-7);
	});

	it('is deterministic and independent of batching', async () => {
		const one = await fast.embed([sentences[0]]);
		const many = await fast.embed(sentences);
		expect(Array.from(many[0]!)).toEqual(Array.from(one[0]!));
	});

	it('ignores unknown words and punctuation', async () => {
		const [plain, noisy] = await fast.embed(['Billing will run on Postgres', 'Billing, zzqxv, will run -- on Postgres!!! qqqyx']);
		expect(Array.from(noisy!)).toEqual(Array.from(plain!));
	});

	it('returns null for texts without a known word, on both paths', async () => {
		const texts = ['', '   \n\t ', 'zzqxv qqqyx wwwvvv', '!!! ... ???', 'a'.repeat(300), 'Billing'];
		for (const e of [fast, viaPipeline]) {
			const out = await e.embed(texts);
			expect(out.slice(0, 5)).toEqual([null, null, null, null, null]);
			expect(out[5]).toBeInstanceOf(Float32Array);
		}
		expect(await fast.embed([])).toEqual([]);
	});

	it('separates paraphrases from unrelated memories', async () => {
		const f = await paraphraseFigures(fast);
		console.log(
			`embedding quality (${f.pairs} paraphrase / ${f.unrelatedPairs} unrelated pairs): mean paraphrase cos ${f.meanParaphrase.toFixed(3)}, mean unrelated cos ${f.meanUnrelated.toFixed(3)}, gap ${(f.meanParaphrase - f.meanUnrelated).toFixed(3)}, AUC ${f.auc.toFixed(3)}, paraphrases above the median unrelated pair ${(f.beatMedian * 100).toFixed(0)}%`,
		);
		expect(f.meanParaphrase - f.meanUnrelated).toBeGreaterThan(0.3);
		expect(f.auc).toBeGreaterThan(0.95);
		expect(f.beatMedian).toBeGreaterThanOrEqual(0.85);
	});

	it('finds the memory a short query asks about', async () => {
		const q = await queryFigures(fast);
		console.log(`query retrieval (${q.queries} queries over ${q.memories} memories): recall@1 ${q.recallAt1.toFixed(2)}, MRR ${q.mrr.toFixed(3)}`);
		expect(q.recallAt1).toBeGreaterThanOrEqual(0.6);
		expect(q.mrr).toBeGreaterThanOrEqual(0.7);
	});
});

describe('other models through the same createEmbedder', () => {
	let dir: string;
	// A 3-word model with 4 dims, laid out like any transformers.js feature-extraction model (no engram_static block),
	// so it can only load through the generic pipeline path, exactly as a hub model would.
	const words = ['alpha', 'beta', 'gamma'];
	const rows = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 4]);

	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'engram-embedder-'));
		writeStaticModel(join(dir, 'tiny', 'three-words'), words, rows, 4, { modelType: 'bert', plain: true });
	});

	afterAll(() => {
		rmSync(dir, { recursive: true, force: true });
	});

	it('loads a non-default model id from a local folder through the pipeline, with progress', async () => {
		const events: EmbedderProgress[] = [];
		const e = await createEmbedder({ modelId: 'tiny/three-words', localModelPath: dir, allowRemoteModels: false, onProgress: (p) => events.push(p) });
		try {
			expect(e.modelId).toBe('tiny/three-words');
			expect(e.path).toBe('pipeline');
			expect(e.dims).toBe(4);
			const [alpha, ab, gamma, none, empty] = await e.embed(['Alpha', 'alpha beta', 'gamma gamma', 'delta', '']);
			expect(Array.from(alpha!)).toEqual([1, 0, 0, 0]);
			expect(ab![0]).toBeCloseTo(Math.SQRT1_2, 6);
			expect(ab![1]).toBeCloseTo(Math.SQRT1_2, 6);
			expect(Array.from(gamma!).map((x) => Number(x.toFixed(2)))).toEqual([0, 0, 0.6, 0.8]);
			expect(none).toBeNull();
			expect(empty).toBeNull();
			expect(events.some((p) => p.status === 'done' && p.file === 'onnx/model.onnx')).toBe(true);
			expect(events.some((p) => p.status === 'ready')).toBe(true);
		} finally {
			await e.dispose?.();
		}
	});

	it('writes the same bytes every time', () => {
		const again = join(dir, 'tiny', 'again');
		writeStaticModel(again, words, rows, 4, { modelType: 'bert', plain: true });
		for (const f of ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json']) {
			expect(readFileSync(join(again, f)).equals(readFileSync(join(dir, 'tiny', 'three-words', f))), f).toBe(true);
		}
	});

	it('reads initializers back out of the ONNX file', () => {
		const t = readOnnxInitializers(readFileSync(join(dir, 'tiny', 'three-words', 'onnx', 'model.onnx')), ['embedding_table_int8', 'embedding_row_scale']);
		expect(t.get('embedding_table_int8')!.dims).toEqual([5, 4]);
		expect(Array.from(new Int8Array(new Uint8Array(t.get('embedding_table_int8')!.raw).buffer)).slice(8)).toEqual([
			127, 0, 0, 0, 0, 127, 0, 0, 0, 0, 95, 127,
		]);
		expect(t.get('embedding_row_scale')!.dims).toEqual([5]);
	});

	it('rejects a missing model with MemoryError embedding_failed', async () => {
		const err = await createEmbedder({ modelId: 'tiny/missing', localModelPath: dir, allowRemoteModels: false }).catch((e: unknown) => e);
		expect(isMemoryError(err)).toBe(true);
		expect((err as { code: string }).code).toBe('embedding_failed');
		expect((err as Error).message).toContain('tiny/missing');
	});
});

describe('the fast path over HTTP (the browser code path), behind an SPA-style server', () => {
	let server: Server;
	let base: string;

	beforeAll(async () => {
		const publicDir = join(ROOT, 'public');
		const types: Record<string, string> = { '.json': 'application/json', '.onnx': 'application/octet-stream' };
		server = createServer((req, res) => {
			const file = normalizePath(join(publicDir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
			if (!file.startsWith(publicDir) || !existsSync(file)) {
				// Like vite preview: unknown paths get index.html with status 200.
				res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
				return;
			}
			const body = readFileSync(file);
			res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'content-length': body.length }).end(body);
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/models/`;
	});

	afterAll(async () => {
		await new Promise((r) => server.close(r));
	});

	it('fetches the model files from localModelPath and matches the disk-loaded embedder exactly', async () => {
		const events: EmbedderProgress[] = [];
		const e = await createEmbedder({ localModelPath: base, onProgress: (p) => events.push(p) });
		expect(e.path).toBe('fast');
		const [x] = await e.embed([sentences[3]]);
		const [y] = await fast.embed([sentences[3]]);
		expect(Array.from(x!)).toEqual(Array.from(y!));
		const onnxProgress = events.filter((p) => p.file === 'onnx/model.onnx' && p.status === 'progress');
		expect(onnxProgress.length).toBeGreaterThan(0);
		expect(onnxProgress.at(-1)!.loaded).toBe(onnxProgress.at(-1)!.total);
	});

	it('loads the parts a helper thread hands over, which embed exactly as the model loaded in place', async () => {
		const parts = await loadStaticParts({ localModelPath: base });
		expect(parts).toBeDefined();
		const buffers = staticPartsBuffers(parts!);
		// What postMessage does with a transfer list: the buffers move, the originals are emptied.
		const moved = structuredClone(parts!, { transfer: buffers });
		expect(buffers.every((b) => b.byteLength === 0)).toBe(true);
		const e = staticEmbedder(moved);
		expect(e.path).toBe('fast');
		expect([e.modelId, e.dims]).toEqual([DEFAULT_MODEL_ID, 100]);
		const texts = [...sentences, ...edgeCases, '', 'zzqxv qqqyx'];
		const [x, y] = await Promise.all([e.embed(texts), fast.embed(texts)]);
		expect(x.map((v) => v && Array.from(v))).toEqual(y.map((v) => v && Array.from(v)));
	});

	it('fetches the files at once but parses them only once parseAfter settles, rejected or not', async () => {
		let settle!: (ok: boolean) => void;
		const gate = new Promise<void>((resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error('snapshot failed')))));
		let done = false;
		// The server says when it has sent each file: the fetches must all finish before the gate opens.
		const sent = new Set<string>();
		const onRequest = (req: IncomingMessage, res: ServerResponse) =>
			res.on('finish', () => sent.add(basename(new URL(req.url ?? '/', 'http://x').pathname)));
		server.on('request', onRequest);
		const loading = loadStaticParts({ localModelPath: base, parseAfter: gate }).then((p) => ((done = true), p));
		const allSent = () => sent.has('tokenizer.json') && sent.has('tokenizer_config.json') && [...sent].some((f) => f.endsWith('.onnx'));
		await vi.waitFor(() => expect(allSent()).toBe(true), { timeout: 15_000, interval: 5 });
		server.off('request', onRequest);
		expect(done).toBe(false);
		settle(false);
		const parts = await loading;
		const [x, y] = await Promise.all([staticEmbedder(parts!).embed(sentences), fast.embed(sentences)]);
		expect(x.map((v) => v && Array.from(v))).toEqual(y.map((v) => v && Array.from(v)));
	});

	it('has no parts for a model that is not a local static one (createEmbedder loads those)', async () => {
		expect(await loadStaticParts({ modelId: 'Xenova/all-MiniLM-L6-v2', localModelPath: base })).toBeUndefined();
	});

	it('reports a model that is not there, instead of parsing the SPA fallback page as JSON', async () => {
		const err = await createEmbedder({ modelId: 'Xenova/all-MiniLM-L6-v2', localModelPath: base, allowRemoteModels: false }).catch((e: unknown) => e);
		expect(isMemoryError(err)).toBe(true);
		expect((err as Error).message).toMatch(/Xenova\/all-MiniLM-L6-v2.*not under/);
	});
});
