/**
 * Sentence embedders. One entry point, {@link createEmbedder}, loads any transformers.js feature-extraction model
 * (the embedded static model `engram/glove-sif-100d` from local files, or a Hugging Face hub model such as
 * `Xenova/all-MiniLM-L6-v2`) and returns unit vectors for texts.
 *
 * The embedded model is a static word-vector table (see scripts/build-model.ts). For it, and any model whose
 * config.json carries an `engram_static` block, there is a fast path that never loads onnxruntime: it tokenises
 * with a word-level tokenizer that gives transformers.js's ids (word-tokenizer.ts; transformers.js's own for a
 * tokenizer.json it does not reproduce), reads the table straight out of the served `onnx/model.onnx` and mean-pools
 * the rows itself. It computes the same vectors as the ONNX graph run by `pipeline('feature-extraction')` with
 * mean pooling and normalisation, 7–10× faster and without compiling the 27 MB ORT wasm at page load.
 *
 * The modules: types.ts (the contract), create.ts (choosing the path), static.ts (the fast path),
 * static-parts.ts (a static model's files made into parts), pipeline.ts (the transformers.js path),
 * model-files.ts (reading and checking model files) and onnx.ts (the protobuf walker).
 *
 * Pure TypeScript: runs in Node, in a web worker and in the page. In Node, pass `localModelPath` (see
 * `nodeModelPath()` in ../node-model-path.ts); in the browser it is a URL path such as '/models/'.
 */
export { createEmbedder } from './create';
export { readOnnxInitializers, type OnnxTensor } from './onnx';
export { staticEmbedder } from './static';
export { loadStaticParts, staticPartsBuffers, type PartsCache } from './static-parts';
export { DEFAULT_MODEL_ID, type CreateEmbedderOptions, type Embedder, type EmbedderProgress, type StaticModelParts } from './types';
