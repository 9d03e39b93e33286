/**
 * The messages between the engine worker and its start-up helper (startup.worker.ts). One
 * request goes in; answers come back as a discriminated union on `type`, in this order: the
 * snapshot's metadata (`snapshot`, whose slices' sections follow in `sections`), the embedded
 * model (`model`), WordNet's category table (`categories`), then `done`. Each of the four parts
 * may come as its `…-error` instead.
 * A plain union over postMessage rather than comlink: the helper answers one request, unasked,
 * as each part is ready, and comlink's call–return shape would hold every part to the slowest.
 */
import type { StaticModelParts } from '../src/engine/embedder';
import type { SourcedSnapshot } from '../src/engine/index-lifecycle';
import type { CategoryTable } from '../src/engine/search/categories';
import type { SnapshotSections, SnapshotSlices } from '../src/engine/search/snapshot';
import type { SnapshotOf } from '../src/store/snapshot-reader';

/** What the engine worker asks for. */
export interface StartupRequest {
	name: string;
	of: SnapshotOf;
	model: { modelId: string; localModelPath: string };
	/** Where WordNet's category table is (src/engine/search/categories.ts), read and parsed here. */
	categories: string;
}

/** A snapshot as the helper posts it: sliced snapshots' sections come in the next message. */
export interface PostedSnapshot {
	stamp: SourcedSnapshot['stamp'];
	snapshot:
		| (Omit<NonNullable<SourcedSnapshot['snapshot']>, 'bytes' | 'slices'> & ({ bytes: Uint8Array } | { slices: Omit<SnapshotSlices, 'sections'> }))
		| undefined;
}

/** One answer of the helper. */
export type StartupAnswer =
	| { type: 'snapshot'; snapshot: PostedSnapshot }
	| { type: 'snapshot-error'; error: string }
	| { type: 'sections'; sections: SnapshotSections }
	| { type: 'sections-error'; error: string }
	/** null: the model is not a local static one; the engine loads it itself. */
	| { type: 'model'; model: StaticModelParts | null }
	| { type: 'model-error'; error: string }
	/** The parsed category table; null: the app has none (the file is missing). */
	| { type: 'categories'; categories: CategoryTable | null }
	| { type: 'categories-error'; error: string }
	/** The helper has nothing left to do (it may still write after its last answer, until this). */
	| { type: 'done' };

/** The answers that carry a result, by type, and the error type that stands for each. */
export const ERROR_OF = {
	snapshot: 'snapshot-error',
	sections: 'sections-error',
	model: 'model-error',
	categories: 'categories-error',
	done: undefined,
} as const;
