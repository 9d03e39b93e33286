/**
 * Which models hold vectors in IndexedDB, cached so that reading a page of memories can say
 * which embedding tables hold each one without a request per memory. The active model's
 * vectors are mirrored by the search index; other models (caller embeddings, a model switched
 * away from) are rare, and only when some exist does a page read look them up row by row.
 */
import type { EngramDB } from '../store/db';
import { embeddingTables } from '../store/memories';
import { vectorModels } from '../store/vectors';
import type { SearchIndex } from './search/types';

/** The distinct models of the vectors table, read once and kept in step by the writers. */
export class VectorModels {
	readonly #db: EngramDB;
	#list: Promise<string[]> | undefined;

	constructor(db: EngramDB) {
		this.#db = db;
	}

	/** The models holding at least one vector (possibly a model whose last vector was deleted). */
	list(): Promise<string[]> {
		if (!this.#list) {
			const read = vectorModels(this.#db);
			this.#list = read;
			read.catch(() => {
				if (this.#list === read) this.#list = undefined;
			});
		}
		return this.#list;
	}

	/** A write stored vectors of `model`. */
	add(model: string): void {
		if (this.#list) this.#list = this.#list.then((l) => (l.includes(model) ? l : [...l, model].sort()));
	}

	/** Forgets the list (another tab wrote, the database was wiped, the active model changed). */
	reset(): void {
		this.#list = undefined;
	}
}

/**
 * For each id, the models holding a vector for it, sorted. `models` is `VectorModels.list()`,
 * awaited before the caller's transaction. With only the active model about, the index answers
 * and no request is made; otherwise every id is looked up.
 */
export async function tablesOf(
	db: EngramDB,
	index: SearchIndex,
	models: readonly string[],
	ids: string[],
): Promise<Map<string, string[]>> {
	if (models.some((m) => m !== index.modelId)) return embeddingTables(db, ids);
	return new Map(ids.map((id) => [id, index.hasVector(id) ? [index.modelId] : []]));
}
