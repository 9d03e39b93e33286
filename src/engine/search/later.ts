/**
 * Later statements of what a top hit says (issue 28, knowledge updates): "Where does Nadia work?"
 * matches "Back at work tomorrow. The clinic on Harbour Street is short two physios" (January),
 * while the answer is a later turn that never says "work": "I handed my notice in at the clinic
 * and started at the sports injury centre" (June). After direct retrieval, each of the
 * LATER.sources strongest direct candidates passes LATER.share of its lexical score to every
 * candidate of its scope that is newer, close to it in meaning (cosine ≥ LATER.cosine), matched
 * one of the same query words, and says something changed (a change word: left, moved, sold,
 * instead, retired, …).
 */
import { processTerm } from '../../core/text';
import { scopeCollection, type Candidate } from './candidates';
import { processTerm as pt, tokenize } from '../../core/text';
import type { IndexView } from './view';

/** Tunables of later statements (share 0 = off). */
export const LATER = {
	/** Share of the source's lexical score a later statement takes (at least; its own may be higher). */
	share: 0,
	/** Strongest direct candidates whose later statements are looked for. */
	sources: 5,
	/** Least cosine between the source's vector and the later statement's. */
	cosine: 0.4,
	/** 2: the later statement must hold a strict change word (STRICT_CHANGE_WORDS); 1: any change word (CHANGE_WORDS); 0: any newer memory. */
	cue: 1,
	/** 1: only for a question about the present state ("Where does Nadia work?", "Does Leila still …?"), not the past. */
	present: 0,
	/** 1: the two must share a content word besides the question's, held by at most `rare` memories of the scope (experiment: contentOf). */
	shared: 0,
	rare: 10,
};

/** A question about how things are now: a present-tense auxiliary first, or "still" / "now" / "currently". */
const PRESENT = /^\s*(?:where|what|which|who|how many|how much)?\b[^?]*?\b(?:does|do|is|are|has|have)\b|\b(?:still|now|currently|these days)\b/i;
/** A question about the past or a moment: these are not asking for the latest value. */
const PAST = /\b(?:did|was|were|had|when|ever|first|last|before|after|ago|used to|\w+ed)\b/i;

/** True when `question` asks how something is now (LATER.present). */
export function asksPresent(question: string): boolean {
	return PRESENT.test(question) && !PAST.test(question);
}

/** Words that say a stated fact changed ("I left the firm", "we sold the Volvo", "gave it up", "moved"), processed. */
const CHANGE_WORDS = [
	'left',
	'leave',
	'quit',
	'sold',
	'moved',
	'anymore',
	'longer',
	'instead',
	'changed',
	'gave',
	'given',
	'retired',
	'switched',
	'started',
	'stopped',
	'now',
	'new',
	'replaced',
	'became',
]
	.map((w) => processTerm(w))
	.filter((t): t is string => t !== null);
const STRICT_CHANGE_WORDS = [
	'left',
	'quit',
	'sold',
	'moved',
	'anymore',
	'longer',
	'instead',
	'changed',
	'gave',
	'given',
	'retired',
	'switched',
	'stopped',
	'replaced',
]
	.map((w) => processTerm(w))
	.filter((t): t is string => t !== null);

/**
 * Raises the lexical score of each later statement of a strong direct candidate (see the file's
 * comment); `rel` orders the sources. Only candidates already found are looked at.
 */
export function liftLaterStatements(view: IndexView, cands: Map<number, Candidate>, rel: (c: Candidate) => number, phrasings: string[]): void {
	if (LATER.share <= 0) return;
	if (LATER.present && !phrasings.some(asksPresent)) return;
	const direct = [...cands.values()].filter((c) => c.direct && c.lex > 0);
	const score = new Map(direct.map((c) => [c, rel(c)]));
	direct.sort((a, b) => score.get(b)! - score.get(a)!);
	const sources = direct.slice(0, LATER.sources);
	const cue = new Map<number, boolean>();
	const changes = (c: Candidate) => {
		let v = cue.get(c.slot);
		if (v === undefined) {
			const id = view.metas[c.slot].id;
			cue.set(c.slot, (v = (LATER.cue === 2 ? STRICT_CHANGE_WORDS : CHANGE_WORDS).some((t) => view.lexical.holds(id, t))));
		}
		return v;
	};
	for (const src of sources) {
		const sm = view.metas[src.slot];
		const sv = view.vectors.get(src.slot);
		if (!sv) continue;
		const lift = LATER.share * src.lex;
		for (const c of cands.values()) {
			if (c === src || c.lex >= lift) continue;
			const m = view.metas[c.slot];
			if (m.timestamp <= sm.timestamp || m.scope !== sm.scope) continue;
			if (![...src.terms].some((t) => c.terms.has(t))) continue;
			if (LATER.cue && !changes(c)) continue;
			if (LATER.shared && !sharesRare(view, src, c)) continue;
			if (!view.vectors.has(c.slot) || view.vectors.dot(c.slot, sv) < LATER.cosine) continue;
			c.lex = lift;
		}
	}
}

function termsOf(text: string): Set<string> {
	const out = new Set<string>();
	for (const t of tokenize(text)) {
		const p = pt(t);
		if (p !== null) out.add(p);
	}
	return out;
}

function sharesRare(view: IndexView, src: Candidate, c: Candidate): boolean {
	const a = view.lexical.contentOf(view.metas[src.slot].id);
	const b = view.lexical.contentOf(view.metas[c.slot].id);
	if (a === undefined || b === undefined) return false;
	const tb = termsOf(b);
	const within = scopeCollection(view, view.metas[src.slot].scope!);
	for (const t of termsOf(a)) {
		if (!tb.has(t) || src.terms.has(t) || CHANGE_WORDS.includes(t)) continue;
		if (view.lexical.contentFrequency(t, within, LATER.rare + 1) <= LATER.rare) return true;
	}
	return false;
}
