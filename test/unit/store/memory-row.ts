/** A minimal stored memory row for the store's own tests (no engine: the fields a row must have). */
import type { MemoryRow } from '../../../src/store/rows';

export function memoryRow(id: string, seq: number, over: Partial<MemoryRow> = {}): MemoryRow {
	return {
		id,
		seq,
		content: `memory ${id}`,
		type: 'Context',
		tags: [],
		scope: 'default',
		importance: 0.5,
		confidence: 0.8,
		metadata: {},
		entities: [],
		timestamp: '2026-01-01T00:00:00.000Z',
		updated_at: '2026-01-01T00:00:00.000Z',
		access_count: 0,
		content_key: id,
		entities_given: false,
		...over,
	};
}
