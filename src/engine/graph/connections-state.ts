/**
 * find_memory_connections, the state one walk carries: its limits, the shapes of bridges,
 * candidates and entry memories, and the small measures every stage uses (rarity, percentile,
 * the weak line). Contract: pure functions of a Walk; only cosineOf reads (a cached row).
 */
import type { ConnectionRelation } from '../../core/graph-schemas';
import type { Entity, Memory } from '../../core/schemas';
import { cosine } from '../../core/vector';
import type { Thresholds } from '../thresholds';
import type { GraphReads } from './reads';

/** Cosines sampled for percentiles; exact below this many memories. */
export const PERCENTILE_SAMPLE = 5000;
/** Bridges walked per round, rarest first. */
export const BRIDGES_PER_ROUND = 40;
/** Memories read per bridge: a hub entity (mentioned by thousands) is sampled, not walked whole. */
export const FANOUT = 400;
/** Candidates scored per round, best structural evidence first. */
export const POOL = 600;
/** Hops along EVOLVED_INTO / INVALIDATED_BY for relation "evolution". */
export const CHAIN_HOPS = 6;

/** A bridge entity, how rare it is, and the memory (with its path) it was reached from. */
export type Bridge = { entity: Entity; rarity: number; source: Source };
/** A memory a round expands from, and the path that reached it. */
export type Source = { id: string; path: string[] };
/** A candidate: its memory, path, bridge (null for an explicit link), evidence and score. */
export type Pooled = {
	memory: Memory;
	path: string[];
	bridge: Entity | null;
	structural: number;
	cos: number | null;
	score: number;
};

/** One walk's settings and what it learned on the way (truncation notes, entry cosines). */
export interface Walk {
	reads: GraphReads;
	relation: ConnectionRelation;
	topN: number;
	scope?: string;
	vec: Float32Array | null;
	sample: Float32Array | null;
	total: number;
	t0?: number;
	truncations: string[];
	entryCos: number[];
	thresholds: Thresholds;
}

/** An entry memory: its cosine to the sentence (null without a vector) and how it was found. */
export type Entry = { memory: Memory; cosine: number | null; via: 'vector' | 'lexical' | 'anchor_event' };

/** Share of the related-threshold a cosine must reach to count as weak evidence. */
const WEAK_SHARE = 0.75;

/** The cosine below which the best entry is not even weak evidence. */
export function weakLine(w: Walk): number {
	return WEAK_SHARE * w.thresholds.similar;
}

/** How rare an entity is in the walked memories: log(1 + total / mentions). */
export function rarity(w: Walk, e: Entity): number {
	return Math.log(1 + Math.max(w.total, 1) / Math.max(1, e.memory_count));
}

/** The cosine of a memory's vector to the sentence's (null without either). */
export async function cosineOf(w: Walk, id: string): Promise<number | null> {
	if (!w.vec) return null;
	const v = await w.reads.vectorOf(id);
	return v ? cosine(v, w.vec) : null;
}

/** Percentile of a cosine in the scope's sampled distribution, one decimal (null without). */
export function percentile(w: Walk, c: number | null): number | null {
	if (c === null || !w.sample || w.sample.length === 0) return null;
	let lo = 0;
	let hi = w.sample.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (w.sample[mid] < c) lo = mid + 1;
		else hi = mid;
	}
	return Math.round((1000 * lo) / w.sample.length) / 10;
}

/** The middle value (upper middle for an even count); undefined for none. */
export function median(xs: number[]): number | undefined {
	if (xs.length === 0) return undefined;
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}
