/**
 * A server-memory knowledge graph as the memories and links its import writes: one memory per
 * observation (or one naming an entity that has none), each with an id made from its entity and
 * text, and a RELATES_TO between the entities' first memories per related pair. Pure: the engine
 * imports by it, and the app works out, before a graph is imported, which memories and links the
 * import will write (so that it can be undone).
 */
import { LIMITS, type EntityRef } from '../core/schemas';
import { contentKey } from '../store/derived';
import type { GraphBundle, ImportErrors } from './import-formats';

/** A memory an observation becomes (store_memory's item shape). */
export interface GraphItem {
	id: string;
	content: string;
	type: 'knowledge';
	tags: string[];
	entities: EntityRef[];
	source: string;
	metadata: { entity: string; entityType: string };
	force: true;
	scope?: string;
}

/**
 * The graph's entities (merged by name), the memories they become in file order with their ids
 * (the same file gets the same ids again) and, by entity name, the id of its first memory.
 */
export function graphPlan(
	g: Pick<GraphBundle, 'entities'>,
	scope?: string,
): { entities: Map<string, GraphEntity>; items: GraphItem[]; anchors: Map<string, string> } {
	const entities = mergeGraphEntities(g);
	const anchors = new Map<string, string>();
	const taken = new Set<string>();
	const items = [...entities.values()].flatMap((e) => {
		const list = graphItems(e, scope);
		for (const item of list) item.id = unfolded(item.id, taken);
		anchors.set(e.name, list[0].id);
		return list;
	});
	return { entities, items, anchors };
}

/** One entity of the graph, its lines merged. */
export type GraphEntity = { name: string; entityType: string; observations: string[] };

/**
 * Entities by name; repeated lines for one name merge their observations (a Set each: linear in
 * the observations however many lines repeat a name). Exported for tests.
 */
export function mergeGraphEntities(g: Pick<GraphBundle, 'entities'>): Map<string, GraphEntity> {
	const seen = new Map<string, { e: GraphEntity; obs: Set<string> }>();
	for (const { value: e } of g.entities) {
		const cur = seen.get(e.name);
		if (!cur) {
			const obs = new Set(e.observations);
			seen.set(e.name, { e: { name: e.name, entityType: e.entityType, observations: [...obs] }, obs });
			continue;
		}
		for (const o of e.observations) {
			if (cur.obs.has(o)) continue;
			cur.obs.add(o);
			cur.e.observations.push(o);
		}
	}
	return new Map([...seen].map(([name, { e }]) => [name, e]));
}

/**
 * `id`, or when an earlier item of the file took it, `id-2`, `id-3`, … (the first free). Item ids
 * hash the normalised text (contentKey), which folds case and edge punctuation: "Prefers C" and
 * "Prefers C#", or the entities "Apple" and "apple", would share one and the import failed. Items
 * come in file order and each (entity, observation) once, so the same file gets the same ids again.
 */
function unfolded(id: string, taken: Set<string>): string {
	let out = id;
	for (let n = 2; taken.has(out); n++) out = `${id}-${n}`;
	taken.add(out);
	return out;
}

/** The store items of one entity: one per observation, or one naming the entity when it has none. */
function graphItems(e: GraphEntity, scope?: string): GraphItem[] {
	const texts = e.observations.filter((o) => o.trim() !== '');
	const list = texts.length ? texts : [`${e.name} (${e.entityType})`];
	return list.map((o) => ({
		id: `kg:${contentKey(`${e.name}\u0000${o}`)}`,
		// The observation alone often lacks its subject ("Speaks Spanish"); prefix the entity name,
		// unless the prefix would take it over a memory's size (the entity is in its tags and metadata).
		content: o.toLowerCase().includes(e.name.toLowerCase()) || o.length + e.name.length + 2 > LIMITS.contentChars ? o : `${e.name}: ${o}`,
		type: 'knowledge' as const,
		tags: [e.name.slice(0, LIMITS.tagChars)],
		entities: [{ name: e.name, type: e.entityType.toLowerCase() }],
		source: 'server-memory',
		metadata: { entity: e.name, entityType: e.entityType },
		force: true as const,
		...(scope && { scope }),
	}));
}

/**
 * RELATES_TO between anchors; several relation types between one pair merge into one context
 * (collected in a Set and joined once: linear however many lines name one pair). Exported for tests.
 */
export function graphLinks(g: Pick<GraphBundle, 'relations'>, anchors: Map<string, string>, errors: ImportErrors) {
	const pairs = new Map<string, { memory1_id: string; memory2_id: string; types: Set<string> }>();
	for (const { line, value: r } of g.relations) {
		const a = anchors.get(r.from);
		const b = anchors.get(r.to);
		if (!a || !b) {
			errors.add(line, `relation: no entity named ${JSON.stringify(!a ? r.from : r.to)} in this file`);
			continue;
		}
		if (a === b) continue;
		const key = `${a}\u0000${b}`;
		const cur = pairs.get(key);
		if (cur) cur.types.add(r.relationType);
		else pairs.set(key, { memory1_id: a, memory2_id: b, types: new Set([r.relationType]) });
	}
	return [...pairs.values()].map(({ memory1_id, memory2_id, types }) => ({
		memory1_id,
		memory2_id,
		type: 'RELATES_TO' as const,
		strength: 0.8,
		context: [...types].join(', '),
	}));
}
