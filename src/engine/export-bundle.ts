/**
 * The shapes of one export page, shared by the exporter (export-ops.ts) and the Markdown
 * renderer (markdown-format.ts), which both need them: kept apart so neither imports the other.
 */
import type { Association } from '../core/schemas';
import type { MemoryRow } from '../store/rows';
import type { toEntity } from './reads';

/** A memory as exported: the stored record without derived index keys. */
export type ExportedMemory = Omit<MemoryRow, 'content_key' | 'session' | 'entity_ids' | 'links' | 'link_keys' | 'vectors' | 'vector_models' | 'other_models'>;

/** A vector as exported (numbers print exactly: float32 → double → JSON → float32 is lossless). */
export interface ExportedVector {
	model: string;
	memory_id: string;
	vector: number[];
}

/** Everything one export page holds. */
export interface ExportBundle {
	memories: ExportedMemory[];
	associations: Association[];
	entities: ReturnType<typeof toEntity>[];
	vectors?: ExportedVector[];
}
