/**
 * find_memory_connections (seed 002), run inside the engine: walk the entity–memory graph
 * outward from what a sentence finds. Entry = the memories nearest the sentence (vector, with a
 * lexical fallback), or an anchor entity; round 1 goes out through the entry's entities
 * (bridges) to memories the entry did not contain, scored by cosine to the sentence and bridge
 * rarity; round 2 re-expands from the round-1 picks through bridges round 1 did not use.
 *
 * Stages: prepare (limits, sentence vector, percentile sample) → entry and grounding (here) →
 * expansion (connections-walk.ts) → selection and output (connections-pick.ts). The state they
 * share is in connections-state.ts; every read goes through one GraphReads (reads.ts).
 */
import { MemoryError } from '../../core/errors';
import { dateMs } from '../../core/time';
import { CONNECTION_LIMITS, type ConnectionsInput, type ConnectionsOutput } from '../../core/graph-schemas';
import type { Entity, Memory } from '../../core/schemas';
import { bridgesOut, candidateOut, entryOut, searchedScope, select } from './connections-pick';
import { cosineOf, PERCENTILE_SAMPLE, percentile, rarity, weakLine, type Entry, type Walk } from './connections-state';
import { chainCandidates, collectBridges, walkRound } from './connections-walk';
import type { GraphReads } from './reads';

/** Runs the walk; throws MemoryError('not_found') for an unknown anchor entity or event. */
export async function findConnections(reads: GraphReads, input: ConnectionsInput): Promise<ConnectionsOutput> {
	const w = await prepare(reads, input);
	const anchor = input.anchor_entity_id ? await resolveEntity(reads, input.anchor_entity_id) : undefined;
	const entry = anchor ? [] : await findEntry(w, input);
	const grounding = await ground(w, entry, anchor);
	const base = {
		relation: w.relation,
		entry: entry.map(entryOut),
		searched_scope: searchedScope(w),
	};
	if (grounding.grounding === 'absent') return { ...base, ...grounding, candidates: [], bridges: [], truncations: w.truncations };
	const exclude = new Set(entry.map((e) => e.memory.id));
	const r1Bridges = anchor
		? [{ entity: anchor, rarity: rarity(w, anchor), source: { id: anchor.id, path: [] } }]
		: await collectBridges(
				w,
				entry.map((e) => ({ id: e.memory.id, path: [e.memory.id] })),
				new Set(),
			);
	const extra = w.relation === 'evolution' ? await chainCandidates(w, [...exclude]) : [];
	const r1 = await walkRound(w, r1Bridges, exclude, extra);
	const picks1 = select(w, r1);
	const rounds = [picks1.map((p) => ({ ...p, round: 1 }))];
	const used = new Set(r1Bridges.map((b) => b.entity.id));
	if ((input.expansion_rounds ?? 1) === 2 && picks1.length > 0) {
		for (const p of picks1) exclude.add(p.memory.id);
		const r2Bridges = await collectBridges(
			w,
			picks1.map((p) => ({ id: p.memory.id, path: p.path })),
			used,
		);
		rounds.push(select(w, await walkRound(w, r2Bridges, exclude, [])).map((p) => ({ ...p, round: 2 })));
		r2Bridges.forEach((b) => used.add(b.entity.id));
	}
	const picked = rounds.flat();
	return {
		...base,
		...grounding,
		candidates: picked.map((p) => candidateOut(w, p)),
		bridges: bridgesOut(w, picked, anchor),
		truncations: w.truncations,
	};
}

// ---------------------------------------------------------------- setup

async function prepare(reads: GraphReads, input: ConnectionsInput): Promise<Walk> {
	const truncations: string[] = [];
	const asked = input.top_n ?? CONNECTION_LIMITS.defaultTopN;
	if (asked > CONNECTION_LIMITS.topN) truncations.push(`top_n ${asked} capped at ${CONNECTION_LIMITS.topN}`);
	const vec = input.sentence ? await reads.embed(input.sentence) : null;
	const filter = input.scope ? { scope: input.scope } : undefined;
	const sampled = vec ? await reads.cosineSample(vec, PERCENTILE_SAMPLE, filter) : null;
	const sample = sampled ? Float32Array.from(sampled.cosines).sort() : null;
	if (sampled && sampled.total > sampled.cosines.length)
		truncations.push(`cosine_percentile estimated from ${sampled.cosines.length} of ${sampled.total} memories`);
	const total = sampled?.total ?? (await reads.timeline({ ...filter, limit: 1, max_content_chars: 0 })).total;
	const thresholds = await reads.thresholds();
	const w: Walk = {
		reads,
		relation: input.relation ?? 'similar',
		topN: Math.min(asked, CONNECTION_LIMITS.topN),
		scope: input.scope,
		vec,
		sample,
		total,
		truncations,
		entryCos: [],
		thresholds,
	};
	w.t0 = await timeBasis(reads, input);
	return w;
}

async function timeBasis(reads: GraphReads, input: ConnectionsInput): Promise<number | undefined> {
	if (input.reference_time) return dateMs(input.reference_time);
	if (input.anchor_event_id === undefined) return undefined;
	const m = await memoryByRef(reads, input.anchor_event_id);
	if (!m) throw new MemoryError('not_found', `anchor_event_id: no memory with id ${JSON.stringify(input.anchor_event_id)}`);
	return Date.parse(m.timestamp);
}

async function memoryByRef(reads: GraphReads, ref: string | number): Promise<Memory | undefined> {
	const id = await reads.resolveId(ref);
	return id ? (await reads.getMemories([id]))[0] : undefined;
}

/** An entity by id, else by exact (case-insensitive) name; not_found names close matches. */
async function resolveEntity(reads: GraphReads, ref: string): Promise<Entity> {
	const [byId] = await reads.getEntities([ref]);
	if (byId) return byId;
	const similar = await reads.searchEntities(ref, 10);
	const exact = similar.find((e) => e.name.toLowerCase() === ref.toLowerCase() || e.aliases.some((a) => a.toLowerCase() === ref.toLowerCase()));
	if (exact) return exact;
	const hint = similar.length
		? `; similar: ${similar
				.slice(0, 5)
				.map((e) => e.id)
				.join(', ')}`
		: '';
	throw new MemoryError('not_found', `anchor_entity_id: no entity ${JSON.stringify(ref)}${hint}`);
}

// ---------------------------------------------------------------- entry and grounding

/** The entry memories: nearest above the weak line, else direct keyword hits, plus an anchor event. */
async function findEntry(w: Walk, input: ConnectionsInput): Promise<Entry[]> {
	const out: Entry[] = [];
	if (w.vec) {
		// Entry is the nearest few, but only those above the weak line: a far-off "nearest" memory
		// would open bridges that have nothing to do with the sentence.
		const all = await w.reads.nearest(w.vec, CONNECTION_LIMITS.entry, w.scope ? { scope: w.scope } : undefined);
		const near = all.filter((n, i) => i === 0 || n.cosine >= weakLine(w));
		const mems = await w.reads.getMemories(near.map((n) => n.id));
		near.forEach((n, i) => mems[i] && out.push({ memory: mems[i]!, cosine: n.cosine, via: 'vector' }));
	}
	if (out.length === 0 && input.sentence) {
		const hits = await w.reads.recall({
			query: input.sentence,
			limit: CONNECTION_LIMITS.entry,
			scope: w.scope,
			expand_relations: false,
			expand_entities: false,
		});
		// Only direct keyword hits: recall's graph and neighbour expansion are not evidence here.
		const direct = hits.results.filter((x) => x.match === 'direct' && x.matched_terms.length > 0);
		if (w.vec) await w.reads.preload(direct.map((h) => h.memory.id));
		for (const h of direct)
			out.push({
				memory: h.memory,
				cosine: w.vec ? await cosineOf(w, h.memory.id) : null,
				via: 'lexical',
			});
	}
	if (input.anchor_event_id !== undefined) {
		const m = await memoryByRef(w.reads, input.anchor_event_id);
		if (m && !out.some((e) => e.memory.id === m.id)) out.push({ memory: m, cosine: await cosineOf(w, m.id), via: 'anchor_event' });
	}
	w.entryCos = out.flatMap((e) => (e.cosine === null ? [] : [e.cosine]));
	return out;
}

/**
 * grounded: the best entry reaches the model's SIMILAR_TO threshold (a real neighbour); weak: it
 * reaches 75% of it, or entry was by keywords only; absent: nothing in scope comes that near, so
 * no walk is made. Thresholds are per model (engine/thresholds.ts), percentiles only reported:
 * in a small scope the best memory is always near the top percentile, related or not.
 */
async function ground(w: Walk, entry: Entry[], anchor?: Entity): Promise<Pick<ConnectionsOutput, 'grounding' | 'grounding_basis'>> {
	if (w.relation === 'explore')
		return {
			grounding: 'exploration',
			grounding_basis: `walked from entity ${anchor!.id} (${anchor!.memory_count} memories); no sentence, so no cosine axis`,
		};
	if (anchor)
		return {
			grounding: anchor.memory_count > 0 ? 'grounded' : 'absent',
			grounding_basis: `walked from entity ${anchor.id}, mentioned by ${anchor.memory_count} memories; independent of the ranking`,
		};
	if (entry.length === 0)
		return {
			grounding: 'absent',
			grounding_basis: w.total === 0 ? 'no memories in scope' : 'no memory in scope shares a word or meaning with the sentence',
		};
	if (w.entryCos.length === 0)
		return {
			grounding: 'weak',
			grounding_basis: 'entered by keywords only: the model knows no word of the sentence',
		};
	const best = Math.max(...w.entryCos);
	const basis = `best entry cosine ${best.toFixed(2)} (percentile ${(percentile(w, best) ?? 0).toFixed(1)} of ${w.total}); related at ${w.thresholds.similar}, weak at ${weakLine(w).toFixed(2)}`;
	if (best >= w.thresholds.similar) return { grounding: 'grounded', grounding_basis: basis };
	if (best >= weakLine(w)) return { grounding: 'weak', grounding_basis: basis };
	return {
		grounding: 'absent',
		grounding_basis: `${basis}: nothing in scope is near the sentence`,
	};
}
