/**
 * Term feedback (issue 28, a measured lever; weight 0 = off): the distinctive words of the first
 * ranking's best direct candidates, searched once more as an expansion phrasing. In a long chat a
 * multi-hop question's evidence shares no word with the question ("How did Daniel's race plans
 * change?" → "IT band syndrome", "switched to the 10k") but may share one with the turns it
 * finds first ("half marathon", "physio").
 */
import { processTerm, tokenize } from '../../core/text';
import { addExpansion, scopeCollection, type Candidate } from './candidates';
import { isYesNo } from './neighbours';
import type { IndexView } from './view';

/** Tunables of term feedback (weight 0 = off). */
export const TERM_FEEDBACK = {
	/** Share of a direct lexical match that a feedback-term match counts for (0 = off). */
	weight: 0,
	/** Best direct candidates whose words are read. */
	top: 5,
	/** Most feedback words searched. */
	terms: 8,
	/** A word held by more than this share of the searched memories is not distinctive. */
	maxShare: 0.03,
	/** A word must be in at least this many of the top candidates. */
	minDocs: 1,
	/** 1: the coverage stage (coverage.ts) counts feedback words as it counts category members. */
	cover: 0,
	/** 1: yes/no questions (neighbours.ts's word neighbours expand those) get no feedback words. */
	skipYesNo: 0,
};

/**
 * Adds the feedback phrasing's matches to `cands`. `rel` is each candidate's fused relevance,
 * `query` the caller's words (not fed back), `record` as addExpansion's.
 */
export function addTermFeedback(
	view: IndexView,
	cands: Map<number, Candidate>,
	rel: (c: Candidate) => number,
	query: readonly string[],
	accept: ((slot: number) => boolean) | undefined,
	scope: string | undefined,
	record: boolean,
): void {
	if (TERM_FEEDBACK.weight <= 0) return;
	if (TERM_FEEDBACK.skipYesNo && query.every(isYesNo)) return;
	const asked = new Set(query.flatMap((q) => tokenize(q).map(processTerm)).filter((t): t is string => t !== null));
	const direct = [...cands.values()].filter((c) => c.direct);
	const r = new Map(direct.map((c) => [c, rel(c)]));
	direct.sort((a, b) => r.get(b)! - r.get(a)!);
	const within = scope === undefined ? undefined : scopeCollection(view, scope);
	const size = within ? within.size : view.count;
	const most = Math.max(1, TERM_FEEDBACK.maxShare * size);
	const weightOf = new Map<string, { w: number; docs: number; word: string }>();
	for (const c of direct.slice(0, TERM_FEEDBACK.top)) {
		const content = view.lexical.contentOf(view.metas[c.slot].id);
		if (content === undefined) continue;
		const seen = new Set<string>();
		for (const t of tokenize(content)) {
			const p = processTerm(t);
			if (p === null || asked.has(p) || seen.has(p)) continue;
			seen.add(p);
			const e = weightOf.get(p) ?? { w: 0, docs: 0, word: t };
			e.w += r.get(c)!;
			e.docs++;
			weightOf.set(p, e);
		}
	}
	// Searched as written (the search processes its words again).
	const picked: [string, number][] = [];
	for (const [term, e] of weightOf) {
		if (e.docs < TERM_FEEDBACK.minDocs) continue;
		const df = view.lexical.contentFrequency(term, within, most + 1);
		if (df === 0 || df > most) continue;
		picked.push([e.word, e.w * Math.log(1 + size / df)]);
	}
	picked.sort((a, b) => b[1] - a[1]);
	const words = picked.slice(0, TERM_FEEDBACK.terms).map(([t]) => t);
	if (words.length > 0) addExpansion(view, words.join(' '), TERM_FEEDBACK.weight, accept, cands, scope, record);
}
