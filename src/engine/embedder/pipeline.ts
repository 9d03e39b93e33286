/**
 * The generic path: any transformers.js feature-extraction model run by onnxruntime, with mean
 * pooling and L2 normalisation. transformers.js itself is imported here, on first need.
 */
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { fail, type CreateEmbedderOptions, type Embedder, type Progress } from './types';

/** Texts per pipeline call: bounds the padded [batch, seq, dims] tensor for long inputs. */
const PIPELINE_BATCH = 32;

/** transformers.js, imported on first need: a local static model loads without it (a quarter of a second in Node). */
export type Transformers = typeof import('@huggingface/transformers');
let transformersModule: Promise<Transformers> | undefined;
/** transformers.js, imported once on first call; a failed import is retried by the next call. */
export const transformers = (): Promise<Transformers> =>
	(transformersModule ??= import('@huggingface/transformers').catch((e: unknown) => {
		// Offline before the app's files were cached: let a later load try again.
		transformersModule = undefined;
		throw e;
	}));

/** The generic path: transformers.js feature-extraction pipeline with mean pooling and L2 normalisation. */
export async function createPipelineEmbedder(
	tf: Transformers,
	modelId: string,
	dtype: CreateEmbedderOptions['dtype'],
	progress: Progress | undefined,
): Promise<Embedder> {
	let extractor: FeatureExtractionPipeline;
	let dims: number;
	try {
		extractor = await tf.pipeline('feature-extraction', modelId, { dtype, progress_callback: progress });
		// One probe both finds the width (configs name it hidden_size, d_model, dim…) and warms the session up.
		const probe = await extractor('hello', { pooling: 'mean', normalize: true });
		dims = probe.dims[probe.dims.length - 1];
	} catch (e) {
		throw fail(modelId, `cannot load model "${modelId}" through the transformers.js pipeline`, e);
	}

	return {
		modelId,
		dims,
		path: 'pipeline',
		async embed(texts: string[]) {
			const out: (Float32Array | null)[] = new Array(texts.length).fill(null);
			// Empty text has no meaning to embed; a transformer would still return the [CLS]/[SEP] vector.
			// Batch texts of similar length together: each batch is padded to its longest text.
			const todo = texts.flatMap((t, i) => (t && t.trim() ? [i] : [])).sort((a, b) => texts[a].length - texts[b].length || a - b);
			try {
				for (let b = 0; b < todo.length; b += PIPELINE_BATCH) {
					const idx = todo.slice(b, b + PIPELINE_BATCH);
					const result = await extractor(
						idx.map((i) => texts[i]),
						{ pooling: 'mean', normalize: true },
					);
					const data = result.data as Float32Array;
					idx.forEach((i, r) => {
						const v = data.slice(r * dims, (r + 1) * dims);
						// A static model with only unknown words yields 0/0 = NaN after normalisation: no vector.
						let ss = 0;
						for (let k = 0; k < dims; k++) ss += v[k] * v[k];
						out[i] = Number.isFinite(ss) && ss > 0 ? v : null;
					});
				}
			} catch (e) {
				throw fail(modelId, 'embedding failed', e);
			}
			return out;
		},
		async dispose() {
			await extractor.dispose();
		},
	};
}
