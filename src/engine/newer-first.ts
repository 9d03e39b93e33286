/**
 * Knowledge updates in a recall's page. When a memory ranks above a newer one of the same scope
 * that may state another value of the same thing ("deploy day is Tuesday" → "… Thursday now";
 * isPossibleUpdate: close vectors, one subject, another number, name or negation), the newer one
 * moves directly above it and names it in `newer_than`. Which is true is the agent's call (the
 * store reported it as `possible_update_of`); the newer is the likelier current value, so an
 * agent reading the top result reads it first. Scores are left as ranked: the order says which
 * is newer, the score how well each matched.
 *
 * Only pages sorted by score are touched, only pairs within the page (≤ 200 memories), and only
 * near ties (NEAR_TIE): an update that ranks far lower stays where its score puts it.
 */
import { possibleUpdateWords, wordCache } from './duplicates';
import { cosine } from '../core/vector';
import type { MemoryRow } from '../store/rows';

/** One ranked result with its row (undefined: the row is gone). */
export interface PageEntry {
	hit: { score: number };
	row: MemoryRow | undefined;
	/** Ids of older memories this one may update, set when it moved above them. */
	newerThan?: string[];
}

const words = wordCache();
/**
 * A newer value moves up only past older ones it nearly ties with (its score ≥ this share of
 * theirs). Unbounded, a 50-result page of conversation turns lost recall (dev set, check R@10
 * 0.880 → 0.845: chit-chat naming other pets or places reads as "another name"); at 0.95–0.9
 * both dev splits are unchanged in every category, while "Deploy day is Thursday now" and
 * "Alice moved to Munich" rank above what they replace.
 */
const NEAR_TIE = 0.9;

/**
 * Reorders `page` in place so that a possible update ranks above every older memory it may
 * update; `model` names the row vectors to compare and `threshold` is the model's similarity
 * threshold (the one store_memory flags possible updates at).
 */
export function newerFirst<E extends PageEntry>(page: E[], model: string, threshold: number): void {
	const time = (e: E) => (e.row ? Date.parse(e.row.timestamp) : 0);
	// Newest first, so that a chain (A → B → C) ends with C above B above A.
	const byAge = [...page.keys()].sort((a, b) => time(page[b]) - time(page[a]));
	for (const newer of byAge.map((i) => page[i])) {
		const n = newer.row;
		const nv = n?.vectors?.[model];
		if (!n || !nv) continue;
		const at = page.indexOf(newer);
		let target = at;
		const older: string[] = [];
		for (let i = 0; i < at; i++) {
			const o = page[i].row;
			const ov = o?.vectors?.[model];
			if (!o || !ov || o.scope !== n.scope || Date.parse(o.timestamp) >= Date.parse(n.timestamp)) continue;
			if (newer.hit.score < NEAR_TIE * page[i].hit.score) continue;
			if (!possibleUpdateWords(cosine(nv, ov), threshold, words(o.content), words(n.content))) continue;
			target = Math.min(target, i);
			older.push(o.id);
		}
		if (target === at) continue;
		page.splice(at, 1);
		page.splice(target, 0, newer);
		newer.newerThan = older;
	}
}
