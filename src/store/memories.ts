/**
 * Memory-row reads: by id or seq, and the one before in a scope or session.
 */
import type { MemoryRef } from '../core/schemas';
import type { EngramDB } from './db';
import type { MemoryRow } from './rows';

/** The row a reference points at: a string id, or an integer seq. */
export async function getByRef(db: EngramDB, ref: MemoryRef): Promise<MemoryRow | undefined> {
	if (typeof ref === 'number') return db.memories.where('seq').equals(ref).first();
	const byId = await db.memories.get(ref);
	if (byId) return byId;
	// A numeric string ("42") from a client that only speaks strings is also a seq.
	if (/^\d+$/.test(ref)) return db.memories.where('seq').equals(Number(ref)).first();
	return undefined;
}

/**
 * The memory inserted just before `seq` in `scope` — and in `session`, when given — or
 * undefined. Reads inside a write transaction see the batch's own earlier rows.
 */
export async function previousInScope(
	db: EngramDB,
	scope: string,
	session: string | undefined,
	seq: number,
): Promise<MemoryRow | undefined> {
	if (session !== undefined)
		return db.memories
			.where('[session+seq]')
			.between([session, -Infinity], [session, seq])
			.filter((m) => m.scope === scope)
			.last();
	return db.memories.where('[scope+seq]').between([scope, -Infinity], [scope, seq]).last();
}
