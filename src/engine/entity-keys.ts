/**
 * Resolves a memory's entities: the caller's (merged) or extracted from its text, and the
 * stable keys the store links them by.
 */
import type { EntityRef } from '../core/schemas';
import { entityId, extractEntities, mergeEntities, normaliseEntityName } from '../core/entities';
import type { EntityKey } from '../store/entities';

/** The entities of a memory: the caller's when given (even an empty list), else extracted. */
export function resolveEntities(content: string, given: EntityRef[] | undefined): { refs: EntityRef[]; given: boolean } {
	if (given !== undefined) return { refs: mergeEntities(given), given: true };
	return { refs: extractEntities(content), given: false };
}

/** Store keys for entity refs, one per distinct entity id. */
export function entityKeys(refs: EntityRef[]): EntityKey[] {
	const out = new Map<string, EntityKey>();
	for (const r of refs) {
		const id = entityId(r);
		if (!out.has(id)) out.set(id, { id, norm: normaliseEntityName(r.name), name: r.name, type: r.type });
	}
	return [...out.values()];
}
