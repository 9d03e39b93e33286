/**
 * Applies a committed write to the in-memory search index. Called right after the IndexedDB
 * transaction commits (never before: a rolled-back write must leave the index untouched).
 */
import type { AssociationType } from '../core/schemas';
import type { MemoryRow } from '../store/rows';
import type { AssociationRow } from '../store/rows';
import type { EngineContext } from './context';
import { toDocMeta, toDocText } from './doc';

/** What one committed write changed, in the order it is applied: removals, upserts, edges. */
export interface IndexChange {
	/** Memories to (re)index with their active-model vector (null = none). */
	upserts: { row: MemoryRow; vector: Float32Array | null }[];
	edges: AssociationRow[];
	removedIds?: string[];
	removedEdges?: AssociationRow[];
	/** The write stamp the transaction set; undefined when it changed nothing indexed. */
	stamp?: number;
}

/** Mirrors a committed change into the index, then tells the engine (snapshot scheduling). */
export function applyToIndex(ctx: EngineContext, change: IndexChange): void {
	for (const e of change.removedEdges ?? []) ctx.index.removeEdge(e.from, e.to, e.type);
	for (const id of change.removedIds ?? []) ctx.index.remove(id);
	for (const u of change.upserts) ctx.index.upsert(toDocMeta(u.row), toDocText(u.row), u.vector);
	for (const e of change.edges) ctx.index.addEdge({ from: e.from, to: e.to, type: e.type, strength: e.strength });
	if (change.stamp === undefined) return;
	const edges = [...change.edges, ...(change.removedEdges ?? [])].map((e) => [e.from, e.to, e.type] as [string, string, AssociationType]);
	ctx.committed(change.stamp, { upserts: change.upserts.map((u) => u.row.id), removed: change.removedIds ?? [], edges });
}
