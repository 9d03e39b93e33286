/**
 * Ids for imported records that have none, made from what the record says, so that importing the
 * same file again (a resend of import_memories after a lost answer, or the same file on the Import
 * screen) finds them already there instead of adding copies. The n-th repeat of a record in one
 * file also counts n: a record said twice is two memories. The formula is the Import screen's
 * (`withStableIds` in src/ui/transfer.ts; a test checks that both give the same ids).
 */
import type { ImportedMemory, Located } from './import-formats';

/**
 * Sets `value.id` on each memory that has `idParts` (no id of its own): `import:` and the first
 * 12 bytes of the SHA-256 of [scope, content, tags, timestamp, type, mem0 id] as JSON, in hex.
 */
export async function addStableIds(memories: Located<ImportedMemory>[], scope: string | undefined): Promise<void> {
	const seen = new Map<string, number>();
	for (const m of memories) {
		if (!m.idParts || m.value.id !== undefined) continue;
		const [recScope, ...rest] = m.idParts;
		const what = [scope ?? recScope ?? 'default', m.value.content, ...rest];
		const id = `import:${await digestOf(what)}`;
		const n = seen.get(id) ?? 0;
		seen.set(id, n + 1);
		m.value.id = n === 0 ? id : `import:${await digestOf([...what, n])}`;
	}
}

/** The first 12 bytes of the SHA-256 of `what` as JSON, in hex. */
async function digestOf(what: unknown): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(what))));
	return [...digest.subarray(0, 12)].map((x) => x.toString(16).padStart(2, '0')).join('');
}
