/**
 * Memory-row reads: by id or seq, and the one before in a scope or session.
 */
import type { MemoryRef } from '../core/schemas';
import type { EngramDB } from './db';
import { lastInIndex } from './raw';
import type { MemoryRow } from './rows';

/**
 * The row a reference points at. A string is an id, matched exactly: "42" is never the memory
 * with seq 42 (a retried delete would hit another memory). A number is a seq, for the profiles
 * that type integer ids (memory-mcp); native schemas never let a number through.
 */
export async function getByRef(db: EngramDB, ref: MemoryRef | number): Promise<MemoryRow | undefined> {
	if (typeof ref === 'number') return db.memories.where('seq').equals(ref).first();
	return db.memories.get(ref);
}

/**
 * The memory inserted just before `seq` in `scope` — and in `session`, when given — or
 * undefined. Reads inside a write transaction see the batch's own earlier rows.
 */
export async function previousInScope(db: EngramDB, scope: string, session: string | undefined, seq: number): Promise<MemoryRow | undefined> {
	if (session !== undefined) return lastInIndex<MemoryRow>(db, 'memories', '[session+seq]', [session, -Infinity], [session, seq], (m) => m.scope === scope);
	return lastInIndex<MemoryRow>(db, 'memories', '[scope+seq]', [scope, -Infinity], [scope, seq]);
}
