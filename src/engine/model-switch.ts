/**
 * Model switching and background re-embedding. Switching loads the new model, swaps in an
 * index built from that model's stored vectors (a snapshot when current), then embeds, in
 * batches and in the background, every memory still lacking a vector for it. Vectors of other
 * models are kept, so switching back is instant.
 */
import { MemoryError } from '../core/errors';
import { getSetting, bumpStamp, setSetting, ACTIVE_MODEL_KEY } from '../store/settings';
import { modelCounts, setVector } from '../store/vectors';
import { embedTexts, type EngineContext } from './context';
import { reportFailure } from './background';
import type { Embedder, EmbedderProgress } from './embedder';
import { loadIndex } from './index-lifecycle';
import { resolveThresholds, thresholdsKey, type Thresholds } from './thresholds';
import type { ModelsInfo, Progress } from './types';

/** Loads an embedder for a model id (the worker passes one bound to the app's model folder). */
export type EmbedderFactory = (modelId: string, onProgress?: (p: EmbedderProgress) => void) => Promise<Embedder>;

/** Memories embedded per batch: one embed call and one transaction each. */
export const REEMBED_BATCH = 64;

/** Runs the switch and the background job; at most one job at a time. */
export class ModelSwitcher {
	#job: Promise<void> = Promise.resolve();
	#token = { cancelled: false };
	#busy = false;
	/** Ids whose text has no vector under the current model (not retried until the next switch). */
	#noVector = new Set<string>();

	constructor(
		private readonly ctx: EngineContext,
		private readonly factory?: EmbedderFactory,
	) {}

	/** True while a background re-embedding runs. */
	get busy(): boolean {
		return this.#busy;
	}

	/** The active model, how many vectors every model holds, and whether a job runs. */
	async list(): Promise<ModelsInfo> {
		return { active: this.ctx.embedder.modelId, dims: this.ctx.embedder.dims, available: await modelCounts(this.ctx.db), reembedding: this.#busy };
	}

	/** Switches to `modelId`; resolves once recall uses it (re-embedding continues in the background). */
	async switchTo(modelId: string, onProgress?: (p: Progress) => void): Promise<void> {
		if (modelId === this.ctx.embedder.modelId) return this.reembedMissing(onProgress);
		if (!this.factory) throw new MemoryError('invalid_input', `modelId: this engine cannot load other models than ${this.ctx.embedder.modelId}`);
		const embedder = await this.factory(modelId, (p) =>
			onProgress?.({ task: 'download', done: p.loaded ?? Math.round(p.progress ?? 0), total: p.total ?? 100, message: p.file ?? p.status }),
		);
		await this.cancel();
		await this.ctx.lock.run(async () => {
			const { index } = await loadIndex(this.ctx.db, embedder.modelId, embedder.dims, this.ctx.snapshotFiles);
			const override = await getSetting<Partial<Thresholds>>(this.ctx.db, thresholdsKey(embedder.modelId));
			await this.ctx.db.write(() => setSetting(this.ctx.db, ACTIVE_MODEL_KEY, embedder.modelId));
			this.ctx.embedder = embedder;
			this.ctx.index = index;
			this.ctx.thresholds = resolveThresholds(embedder.modelId, override);
			this.#noVector.clear();
		});
		this.ctx.hub.emit({ kind: 'model' });
		void this.reembedMissing(onProgress);
	}

	/** Starts (or joins) the background job; resolves when it ends. */
	reembedMissing(onProgress?: (p: Progress) => void): Promise<void> {
		if (this.#busy) return this.#job;
		const token = (this.#token = { cancelled: false });
		this.#busy = true;
		this.#job = this.#run(token, onProgress)
			.catch((e) => reportFailure(this.ctx, 're-embedding', e))
			.finally(() => {
				this.#busy = false;
			});
		return this.#job;
	}

	/** Resolves when no job runs. */
	idle(): Promise<void> {
		return this.#job;
	}

	/** Stops the running job after its current batch. */
	async cancel(): Promise<void> {
		this.#token.cancelled = true;
		await this.#job;
	}

	async #run(token: { cancelled: boolean }, onProgress?: (p: Progress) => void): Promise<void> {
		const model = this.ctx.embedder.modelId;
		const missing = await this.#missing(model);
		for (let done = 0; done < missing.length; done += REEMBED_BATCH) {
			if (token.cancelled || this.ctx.embedder.modelId !== model) return;
			await this.#batch(model, missing.slice(done, done + REEMBED_BATCH));
			onProgress?.({ task: 're-embed', done: Math.min(done + REEMBED_BATCH, missing.length), total: missing.length, message: model });
		}
	}

	/**
	 * Ids of memories without a vector under `model`, from the index (which mirrors every memory
	 * with its active-model vector): asking IndexedDB meant counting both tables at every page
	 * load, 1.3 s at 100k memories during which the first recall's read waited.
	 */
	async #missing(model: string): Promise<string[]> {
		const index = this.ctx.index;
		if (index.modelId !== model) return [];
		return index.idsWithoutVector().filter((id) => !this.#noVector.has(id));
	}

	/** Embeds one batch and stores the vectors in one transaction (skipping memories changed meanwhile). */
	async #batch(model: string, ids: string[]): Promise<void> {
		const rows = (await this.ctx.db.memories.bulkGet(ids)).filter((r) => r !== undefined);
		const vectors = await embedTexts(
			this.ctx,
			rows.map((r) => r.content),
		);
		await this.ctx.lock.run(async () => {
			if (this.ctx.embedder.modelId !== model) return;
			const done: { id: string; v: Float32Array }[] = [];
			const stamp = await this.ctx.db.write(async () => {
				for (const [i, row] of rows.entries()) {
					const v = vectors[i];
					const now = await this.ctx.db.memories.get(row.id);
					if (!v) this.#noVector.add(row.id);
					if (!v || !now || now.content !== row.content) continue;
					setVector(now, model, v);
					await this.ctx.db.memories.put(now);
					done.push({ id: row.id, v });
				}
				return done.length ? bumpStamp(this.ctx.db) : undefined;
			});
			for (const d of done) this.ctx.index.setVector(d.id, d.v);
			if (stamp !== undefined) this.ctx.committed(stamp, { upserts: done.map((d) => d.id), removed: [], edges: [] });
		});
	}
}
