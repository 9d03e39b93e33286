/**
 * The static fast path: mean-pools a static model's int8 rows over a text's tokens and normalises,
 * computing what the ONNX graph computes without loading onnxruntime.
 */
import { MemoryError } from '../../core/errors';
import { tokenizerOf } from '../word-tokenizer';
import type { Transformers } from './pipeline';
import { partsOf, readStaticFiles, readTable } from './static-parts';
import { fail, type Embedder, type Progress, type StaticModelInfo, type StaticModelParts } from './types';

/** The embedder over parts from {@link loadStaticParts}, loaded in this thread or another. */
export function staticEmbedder(parts: StaticModelParts): Embedder {
	const tokenizer = tokenizerOf(parts.tokenizer);
	return tableEmbedder(parts, { encode: (t) => tokenizer.encode(t), vocabSize: tokenizer.vocabSize, maxTokens: parts.maxTokens });
}

/** The onnxruntime-free path: tokenizer + int8 row table read from the served ONNX file. */
export async function createStaticEmbedder(
	modelId: string,
	info: StaticModelInfo,
	base: string,
	progress: Progress | undefined,
	configure: () => Promise<Transformers>,
): Promise<Embedder> {
	const files = await readStaticFiles(modelId, info, base, progress);
	let embedder: Embedder;
	if (files.spec) embedder = staticEmbedder(partsOf(modelId, info, files, files.spec));
	else {
		// A tokenizer.json the word-level path does not reproduce: transformers.js's own tokenizer.
		let slow: Awaited<ReturnType<Transformers['AutoTokenizer']['from_pretrained']>>;
		try {
			slow = await (await configure()).AutoTokenizer.from_pretrained(modelId, { progress_callback: progress });
		} catch (e) {
			throw e instanceof MemoryError ? e : fail(modelId, `cannot load static model "${modelId}"`, e);
		}
		// get_vocab() would build a 150k-entry Map just to count it; the model's id → token array has the same length.
		const vocabSize = slow._tokenizer.model?.vocab.length ?? slow.get_vocab().size;
		const { table, scales, dims } = readTable(modelId, info, files.onnx, vocabSize);
		const maxTokens = Number.isFinite(slow.model_max_length) ? slow.model_max_length : Infinity;
		embedder = tableEmbedder({ modelId, dims, unk: info.unk_token_id, table, scales }, { encode: (t) => slow.encode(t), vocabSize, maxTokens });
	}
	progress?.({ status: 'ready' });
	return embedder;
}

/** Mean-pools a static model's int8 rows over a text's tokens and normalises. */
function tableEmbedder(m: Pick<StaticModelParts, 'modelId' | 'dims' | 'unk' | 'table' | 'scales'>, tokenizer: StaticTokenizer): Embedder {
	const { modelId, dims, unk, table: q, scales } = m;
	const maxTokens = tokenizer.maxTokens;

	const embedOne = (text: string, acc: Float64Array): Float32Array | null => {
		if (!text || !text.trim()) return null;
		const ids = tokenizer.encode(text);
		const n = Math.min(ids.length, maxTokens);
		acc.fill(0);
		let known = 0;
		for (let t = 0; t < n; t++) {
			const id = ids[t];
			const s = scales[id];
			if (id === unk || !s) continue;
			known++;
			const off = id * dims;
			// fround(q·s) is exactly what the graph's Cast+Mul yields in float32, so both paths agree to float32 rounding of the sums.
			for (let k = 0; k < dims; k++) acc[k] += Math.fround(q[off + k] * s);
		}
		if (known === 0) return null;
		let ss = 0;
		for (let k = 0; k < dims; k++) ss += acc[k] * acc[k];
		if (!(ss > 0)) return null;
		const inv = 1 / Math.sqrt(ss);
		const out = new Float32Array(dims);
		for (let k = 0; k < dims; k++) out[k] = acc[k] * inv;
		return out;
	};

	return {
		modelId,
		dims,
		path: 'fast',
		async embed(texts: string[]) {
			const acc = new Float64Array(dims);
			try {
				return texts.map((t) => embedOne(t, acc));
			} catch (e) {
				throw fail(modelId, 'embedding failed', e);
			}
		},
		async dispose() {},
	};
}

/** What the static path needs of a tokenizer. */
interface StaticTokenizer {
	encode(text: string): number[];
	vocabSize: number;
	/** Tokens embedded per text (tokenizer_config.json's model_max_length). */
	maxTokens: number;
}
