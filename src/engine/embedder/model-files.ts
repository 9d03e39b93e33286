/**
 * Model-file I/O: a model's files read from disk in Node (when the base is a filesystem path) or
 * fetched relative to the page or worker, with byte progress, and checked against the sha256
 * digests config.json records.
 */
import type { StaticModelInfo, Progress } from './types';
import { fail } from './types';

/** Whether this runs in Node (not a browser, worker or jsdom page). */
export const IS_NODE = typeof process !== 'undefined' && process.release?.name === 'node' && typeof (globalThis as { window?: unknown }).window === 'undefined';

/** A model file, checked against the sha256 config.json records for it (when it records one). */
export async function readVerified(base: string, modelId: string, file: string, info: StaticModelInfo, progress: Progress | undefined): Promise<Uint8Array> {
	const data = await readModelFile(base, modelId, file, progress);
	await verifySha256(modelId, file, data, info.sha256?.[file]);
	return data;
}

/**
 * Checks a model file against the sha256 its config.json records, because a service worker or HTTP cache that
 * mixes two builds would otherwise pair a tokenizer with the wrong table and silently return wrong vectors.
 * Skipped where WebCrypto is unavailable (plain-HTTP origins other than localhost).
 */
async function verifySha256(modelId: string, file: string, data: Uint8Array, expected: string | undefined): Promise<void> {
	if (!expected || !globalThis.crypto?.subtle) return;
	const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
	const actual = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
	if (actual !== expected)
		throw fail(modelId, `${file} does not match config.json (sha256 ${actual}, expected ${expected}); the model files come from different builds`);
}

/** True when `base` is a filesystem path in Node (not a URL), so files are read from disk rather than fetched. */
const onDisk = (base: string): boolean => IS_NODE && !/^[a-z][a-z0-9+.-]*:\/\//i.test(base);

/** Node's fs/promises and path, imported so that bundlers leave them alone: only the on-disk branch uses them. */
async function nodeFs(): Promise<{ fs: typeof import('node:fs/promises'); path: typeof import('node:path') }> {
	const fsModule = 'node:fs/promises';
	const pathModule = 'node:path';
	const [fs, path] = await Promise.all([import(/* @vite-ignore */ fsModule), import(/* @vite-ignore */ pathModule)]);
	return { fs, path };
}

/** The URL of `<base>/<rel>`, relative to the page or worker location when base is a path such as '/models/'. */
function modelUrl(base: string, rel: string): URL {
	const href = (globalThis as { location?: { href: string } }).location?.href;
	return new URL(`${base.replace(/\/+$/, '')}/${rel}`, href);
}

/**
 * `<base>/<modelId>/config.json`, parsed: read from disk in Node, else fetched and checked to be JSON rather than an
 * SPA's index.html. Undefined when it is missing (any failure to fetch, a 404, HTML) and the model is not local; a
 * file on disk that is not a JSON object is an error.
 */
export async function readLocalConfig(base: string, modelId: string): Promise<Record<string, unknown> | undefined> {
	const isObject = (json: unknown): json is Record<string, unknown> => typeof json === 'object' && json !== null && !Array.isArray(json);
	if (onDisk(base)) {
		const { fs, path } = await nodeFs();
		const file = path.join(base, modelId, 'config.json');
		let text: string;
		try {
			text = await fs.readFile(file, 'utf8');
		} catch {
			return undefined;
		}
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch (e) {
			throw fail(modelId, `cannot load config.json of model "${modelId}" from ${file}`, e);
		}
		if (!isObject(json)) throw fail(modelId, `cannot load config.json of model "${modelId}" from ${file}: not a JSON object`);
		return json;
	}
	try {
		const res = await fetch(modelUrl(base, `${modelId}/config.json`));
		if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html')) return undefined;
		const json: unknown = await res.json();
		return isObject(json) ? json : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Reads `<base>/<modelId>/<file>`: from disk in Node when base is a filesystem path, otherwise with fetch
 * (relative to the page or worker location), reporting byte progress.
 */
async function readModelFile(base: string, modelId: string, file: string, progress: Progress | undefined): Promise<Uint8Array> {
	progress?.({ status: 'initiate', file });
	if (onDisk(base)) {
		const { fs, path } = await nodeFs();
		const full = path.join(base, modelId, file);
		let data: Uint8Array;
		try {
			const b = await fs.readFile(full);
			data = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
		} catch (e) {
			throw fail(modelId, `cannot read ${full} (build it with \`node scripts/ensure-model.mjs\`)`, e);
		}
		progress?.({ status: 'progress', file, progress: 100, loaded: data.byteLength, total: data.byteLength });
		progress?.({ status: 'done', file });
		return data;
	}
	const url = modelUrl(base, `${modelId}/${file}`);
	let res: Response;
	try {
		res = await fetch(url);
	} catch (e) {
		throw fail(modelId, `cannot fetch ${url.href}`, e);
	}
	if (!res.ok) throw fail(modelId, `cannot fetch ${url.href}: HTTP ${res.status}`);
	const total = Number(res.headers.get('content-length')) || 0;
	// Streamed only for a listener: each chunk is a task of this thread, which a busy engine
	// (restoring its index at startup) may not get to for a while. As a Blob the body is
	// gathered outside this thread, and read in one go once it is complete.
	if (!res.body || !progress) {
		const data = new Uint8Array(await (await res.blob()).arrayBuffer());
		progress?.({ status: 'done', file });
		return data;
	}
	progress?.({ status: 'download', file });
	const reader = res.body.getReader();
	const chunks: Uint8Array[] = [];
	let loaded = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		chunks.push(value);
		loaded += value.byteLength;
		progress?.({ status: 'progress', file, progress: total ? Math.min(100, (loaded / total) * 100) : undefined, loaded, total: total || undefined });
	}
	const data = new Uint8Array(loaded);
	let at = 0;
	for (const c of chunks) {
		data.set(c, at);
		at += c.byteLength;
	}
	progress?.({ status: 'done', file });
	return data;
}
