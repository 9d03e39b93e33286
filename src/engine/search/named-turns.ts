/**
 * Turns of the person a question names, near its best hits (issue 28, ninth round). The answer to
 * "What was Maya doing wrong on the pottery wheel, according to her teacher?" is often a turn of
 * Maya's a few turns after the one that matches the question's words, past the two-turn neighbour
 * window (expand.ts), with small talk by the other speaker in between. After the neighbour spread,
 * each of the NAMED_TURNS.sources strongest candidates passes NAMED_TURNS.share of its relevance
 * to the turns of its session up to NAMED_TURNS.window steps away that hold a name the question
 * says and more than NAMELESS.share of the scope holds (a speaker: nameless.ts `commonNames`), as a
 * neighbour share (scaled by the receiving turn's substance, the larger share kept). Only a scoped
 * recall whose question names such a name.
 *
 * Measured on the dev set (docs/BENCHMARKS.md, ninth round): a window of the whole session (40)
 * lifted the named person's small talk over multi-hop evidence in other sessions; 10 lowered tune
 * multi-hop recall@50; 3 moved nothing.
 */
import { candidateFor, substance, type Candidate } from './candidates';
import { adjacentTurn, strongest, type Accept, type RelevanceOf } from './expand';
import type { IndexView } from './view';

/** Tunables of the named-turns spread (share 0 = off); chosen on the tune split (docs/BENCHMARKS.md). */
export const NAMED_TURNS = {
	/** Share of a source's relevance a turn of the named person near it receives (0 = off). */
	share: 0.3,
	/** Strongest candidates (direct or expanded) whose sessions are looked at. */
	sources: 10,
	/** Turns looked at each way from a source, within its session. */
	window: 5,
};

/**
 * Gives the turns holding one of `names` (processed terms) within NAMED_TURNS.window turns of each
 * of the strongest candidates, in the same session, a neighbour share of its relevance.
 */
export function spreadToNamedTurns(view: IndexView, cands: Map<number, Candidate>, rel: RelevanceOf, accept: Accept, names: readonly string[]): void {
	if (NAMED_TURNS.share <= 0 || names.length === 0) return;
	for (const src of strongest(cands, rel, NAMED_TURNS.sources, false)) {
		const r = rel(src);
		const id = view.metas[src.slot].id;
		for (const dir of ['out', 'in'] as const) {
			let cur: number | undefined = src.slot;
			for (let step = 0; step < NAMED_TURNS.window; step++) {
				cur = adjacentTurn(view, cur, dir, accept);
				if (cur === undefined) break;
				const other = view.metas[cur].id;
				if (!names.some((t) => view.lexical.holds(other, t))) continue;
				const c = candidateFor(cands, cur, false);
				const share = NAMED_TURNS.share * r * substance(view, c);
				if (share > c.neighbor) {
					c.neighbor = share;
					c.neighborVia = id;
					if (!c.direct) c.via = id;
				}
			}
		}
	}
}
