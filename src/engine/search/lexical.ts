/**
 * The lexical side of the index: minisearch (BM25+) over a memory's content, summary, tags,
 * entity names, date words and metadata values, with Engram's own tokeniser, stop words and stemmer
 * (core/text.ts). Summary, tags and entities are boosted because they are short, deliberate
 * descriptions of the memory; date words let "when…" and "in May 2023" queries match.
 */
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import { processTerm, tokenize } from '../../core/text';
import { searchTop } from './bm25';
import { packLexical, packLexicalInSteps, postingsOf, unpackLexical, type PackedLexical } from './lexical-codec';
import { internalsOf, type MiniSearchInternals } from './minisearch-internals';
import type { Steps } from './steps';
import { PackedTermIndex, type TermData } from './term-index';
import type { SlotNames } from './types';

/** The fields of one indexed document. */
export interface LexicalDoc {
	id: string;
	content: string;
	summary: string;
	tags: string;
	entities: string;
	dates: string;
	metadata: string;
	context: string;
}

const FIELDS = ['content', 'summary', 'tags', 'entities', 'dates', 'metadata', 'context'] as const;

/** Field boosts: short, deliberate descriptions weigh more than running text. */
export const FIELD_BOOSTS: Readonly<Record<(typeof FIELDS)[number], number>> = {
	content: 1,
	summary: 2,
	tags: 1.5,
	entities: 1.5,
	dates: 1,
	metadata: 1,
	// The turn a conversation turn follows: a hint of what it answers, worth less than its own
	// words (0.3–0.5 gave the same recall on the dev set; 1 and above ranked answers below the
	// questions they follow). See LEXICAL_TUNING.context.
	context: 0.5,
};

/**
 * Query-side tunables, measured on the dev set (docs/BENCHMARKS.md): prefix matching for
 * processed terms of at least `prefixMin` characters ("photograph" → "photography") at
 * `prefixWeight` of an exact match; BM25+ parameters for short conversational memories.
 */
export const LEXICAL_TUNING = {
	prefixMin: 5,
	prefixWeight: 0.3,
	fuzzy: 0,
	bm25: { k: 1.2, b: 0.5, d: 0.5 },
	/**
	 * In collections of at least `pruneMinDocs` memories, a query word found in more than
	 * `pruneShare` of the documents is dropped when the query has a rarer one: its idf is near
	 * zero, so it barely moves the ranking, but scoring its postings is most of the work.
	 */
	pruneShare: 0.3,
	pruneMinDocs: 5_000,
	/** Boost of the `context` field at search time (the eval's ablation sets it to 0). */
	context: FIELD_BOOSTS.context,
};

/**
 * Search options for a `context` boost other than the default (the eval's ablation): none when
 * it is the default (an explicit undefined would drop every boost); a boost of 0 leaves the field
 * out, since minisearch reads a zero boost as 1.
 */
function contextOptions(boost: number): { fields?: string[]; boost?: Record<string, number> } {
	if (boost === FIELD_BOOSTS.context) return {};
	if (boost === 0) return { fields: FIELDS.filter((f) => f !== 'context') };
	return { boost: { ...FIELD_BOOSTS, context: boost } };
}

const OPTIONS: Options<LexicalDoc> = {
	idField: 'id',
	fields: [...FIELDS],
	storeFields: [],
	tokenize: (text) => tokenize(text),
	processTerm: (term) => processTerm(term),
	searchOptions: {
		boost: { ...FIELD_BOOSTS },
		combineWith: 'OR',
	},
	// minisearch's own vacuuming walks the term tree in batches with a wait between them; a
	// document added meanwhile can split a tree node the walk has yet to visit, and the walk
	// then throws an uncaught `TypeError … reading 'keys'` (seen with a full disk, where every
	// failed store discards what it had indexed and the next store adds). LexicalIndex vacuums
	// itself, in one synchronous pass (see `vacuumIfDirty`).
	autoVacuum: false,
};

/**
 * When discarded documents are cleaned out of the term tree: minisearch's default conditions
 * (at least 20 discarded, and a tenth of all documents), so a pass over the tree comes once
 * per many removals.
 */
export const VACUUM_CONDITIONS = { minDirtCount: 20, minDirtFactor: 0.1 };

/** One lexical hit: the memory id, its BM25 score and the processed query terms it matched. */
export interface LexicalHit {
	id: string;
	score: number;
	queryTerms: string[];
}

/**
 * The sub-collection a search is restricted to (a scope): which ids belong to it and how many
 * documents it holds. BM25's inverse document frequency is then computed over it, not the whole
 * index, so a word that is everywhere in this scope (the people of a conversation, a project's
 * name) stops outweighing the words that single out one memory.
 */
export interface Collection {
	size: number;
	has: (id: string) => boolean;
}

/** Most terms LexicalIndex remembers the tree's data of; cleared when full, so it stays a few MB. */
const TERM_CACHE_MAX = 200_000;

/** A new term's postings, by field id (minisearch's `createMap`). */
const newTermData = () => new Map<number, Map<number, number>>();

/**
 * A field's processed terms with their counts, and its length as minisearch counts it: the
 * distinct tokens before processing (stop words included).
 */
function fieldTerms(text: string, words?: Vocabulary): { terms: Map<string, number>; length: number } {
	const tokens = tokenize(text);
	const terms = new Map<string, number>();
	for (const tok of tokens) {
		const t = processTerm(tok);
		if (!t) continue;
		terms.set(t, (terms.get(t) ?? 0) + 1);
		if (words && !words.seen.has(t)) {
			words.seen.add(t);
			words.list.push(tok);
		}
	}
	return { terms, length: tokens.length < 2 ? tokens.length : new Set(tokens).size };
}

/**
 * The words the index's contents hold, one written form per processed term, in the order first
 * indexed (see LexicalIndex.vocabulary): what word-neighbour expansion (neighbours.ts) may add.
 */
interface Vocabulary {
	seen: Set<string>;
	list: string[];
	/** False for a restored index until its terms have joined the list (their processed forms). */
	complete: boolean;
}

/** BM25's idf, exactly as minisearch computes it. */
function idf(total: number, matching: number): number {
	return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

/**
 * Longer contents are not remembered (contentOf answers undefined): possible_update_of never
 * compares texts over 2,000 characters (duplicates.ts UPDATE_MAX_CHARS), and notes of up to
 * 50,000 characters would hold gigabytes.
 */
export const RECENT_CONTENT_MAX_CHARS = 2_000;
/** What one remembered content costs besides its characters (its map entry), in characters. */
export const RECENT_ENTRY_CHARS = 64;
/**
 * How much recently indexed content the index remembers (contentOf), in characters (each entry
 * counting RECENT_ENTRY_CHARS more): 16,384 contents of the longest remembered length, at most
 * ~65 MB. A count of entries bounded it before: at 16,384 memories of any length, a batch import
 * past ~20k memories read most of its neighbours' rows (vectors and links included) from
 * IndexedDB, more with every batch; by characters, 100k memories of a few sentences fit.
 */
export const RECENT_CONTENT_CHARS = 16_384 * RECENT_CONTENT_MAX_CHARS;

/** A minisearch index with upsert/remove by id and JSON snapshots. */
export class LexicalIndex {
	private ms: MiniSearch<LexicalDoc>;
	/** Content of the latest documents indexed, oldest first (see contentOf). */
	private recent = new Map<string, string>();
	/** What `recent` holds, in characters (see RECENT_CONTENT_CHARS). */
	private recentChars = 0;
	/** Term data by term, as the term tree holds it (see termData). */
	private terms = new Map<string, TermData>();
	/** The last `dates` value indexed and its terms: a batch's memories share one timestamp. */
	private lastDates: { text: string; terms: Map<string, number>; length: number } | undefined;

	/** Content words, one per processed term (vocabulary()). */
	private words: Vocabulary;

	constructor(ms?: MiniSearch<LexicalDoc>) {
		this.ms = ms ?? new MiniSearch<LexicalDoc>(OPTIONS);
		this.words = { seen: new Set(), list: [], complete: ms === undefined };
	}

	/**
	 * The content words indexed from position `from` on of the vocabulary's list (one written form
	 * per processed term, in the order first indexed; words of removed memories stay). A restored
	 * index knows only its processed terms (of every field): on the first call they join the list as
	 * they are ("ferret", "injuri"; a word the model does not know gets no vector), and a word
	 * indexed afterwards joins as written.
	 */
	vocabulary(from: number): string[] {
		const v = this.words;
		if (!v.complete) {
			v.complete = true;
			const index = internalsOf(this.ms)._index;
			const terms = index instanceof PackedTermIndex ? index.allTerms() : [...index].map(([term]) => term);
			for (const term of terms)
				if (!v.seen.has(term)) {
					v.seen.add(term);
					v.list.push(term);
				}
		}
		return v.list.slice(from);
	}

	/** Whether some memory's content (within `within`, when given) holds the processed term. */
	holdsTerm(term: string, within?: Collection): boolean {
		return this.contentFrequency(term, within, 1) > 0;
	}

	/** How many memories' content (within `within`, when given) hold the processed term, counted up to `upTo`. */
	contentFrequency(term: string, within: Collection | undefined, upTo = Infinity): number {
		const ms = internalsOf(this.ms);
		const postings = postingsOf(ms._index.get(term), ms._fieldIds.content);
		if (!postings) return 0;
		let n = 0;
		for (const short of postings.keys()) {
			const id = ms._documentIds.get(short);
			if (id !== undefined && (!within || within.has(id)) && ++n >= upTo) break;
		}
		return n;
	}

	/**
	 * The content of a document indexed lately (the last RECENT_CONTENT upserts of at most
	 * RECENT_CONTENT_MAX_CHARS), as indexed; undefined when not remembered (a restored index
	 * remembers none). Every change of a
	 * memory's content reaches the index, so what it remembers is current: a batch store
	 * compares its words with its neighbours' without reading their rows.
	 */
	contentOf(id: string): string | undefined {
		return this.recent.get(id);
	}

	get size(): number {
		return this.ms.documentCount;
	}

	/** Adds or replaces a document. */
	upsert(doc: LexicalDoc): void {
		if (this.ms.has(doc.id)) this.discard(doc.id);
		this.add(doc);
		this.forget(doc.id);
		if (doc.content.length > RECENT_CONTENT_MAX_CHARS) return;
		this.recentChars += doc.content.length + RECENT_ENTRY_CHARS;
		for (const [id] of this.recent) {
			if (this.recentChars <= RECENT_CONTENT_CHARS) break;
			this.forget(id);
		}
		this.recent.set(doc.id, doc.content);
	}

	remove(id: string): void {
		this.forget(id);
		if (this.ms.has(id)) this.discard(id);
	}

	/** Drops a remembered content (see contentOf). */
	private forget(id: string): void {
		const content = this.recent.get(id);
		if (content === undefined) return;
		this.recent.delete(id);
		this.recentChars -= content.length + RECENT_ENTRY_CHARS;
	}

	/**
	 * minisearch's `add`, with the same result (postings, field lengths, averages), but each
	 * field's terms counted first and each distinct term looked up in the term tree once, not
	 * once per occurrence; and the `dates` field's terms reused while the timestamp repeats.
	 * This was most of a batch store's index update.
	 */
	private add(doc: LexicalDoc): void {
		const ms = internalsOf(this.ms);
		if (ms._idToShortId.has(doc.id)) throw new Error(`MiniSearch: duplicate ID ${doc.id}`);
		const short = ms._nextId;
		ms._idToShortId.set(doc.id, short);
		ms._documentIds.set(short, doc.id);
		ms._documentCount += 1;
		ms._nextId += 1;
		const count = ms._documentCount - 1;
		const lengths: number[] = [];
		ms._fieldLength.set(short, lengths);
		for (const field of FIELDS) {
			const fieldId = ms._fieldIds[field];
			const { terms, length } = field === 'dates' ? this.datesTerms(doc.dates) : fieldTerms(doc[field], field === 'content' ? this.words : undefined);
			lengths[fieldId] = length;
			ms._avgFieldLength[fieldId] = ((ms._avgFieldLength[fieldId] || 0) * count + length) / (count + 1);
			for (const [term, n] of terms) {
				const data = this.termData(ms, term);
				// `short` is new and `terms` holds each term once: the posting is always a new entry.
				const postings = data.get(fieldId);
				if (postings === undefined) data.set(fieldId, new Map<number, number>().set(short, n));
				else postings.set(short, n);
			}
		}
	}

	/**
	 * A term's postings (by field), created when new. The term tree is walked once per term,
	 * not per document: a term's data stays the same object in the tree for as long as it holds
	 * any posting (minisearch drops a term only once its last posting is gone, and a restore or
	 * `clear` starts a new cache), so remembered data that is not empty is the tree's.
	 */
	private termData(ms: MiniSearchInternals, term: string): TermData {
		let data = this.terms.get(term);
		if (data === undefined || data.size === 0) {
			data = ms._index.fetch(term, newTermData);
			if (this.terms.size >= TERM_CACHE_MAX) this.terms.clear();
			this.terms.set(term, data);
		}
		return data;
	}

	/** fieldTerms of a `dates` value, remembered for the next document with the same one. */
	private datesTerms(text: string): { terms: Map<string, number>; length: number } {
		if (this.lastDates?.text !== text) this.lastDates = { text, ...fieldTerms(text) };
		return this.lastDates;
	}

	private discard(id: string): void {
		this.ms.discard(id);
		this.vacuumIfDirty();
	}

	/**
	 * Cleans discarded documents out of the term tree once enough have gathered, in one pass
	 * with no wait inside it (a batch size no tree reaches): nothing can change the tree while
	 * it is walked. minisearch runs the walk synchronously up to its first wait, so the pass is
	 * done when `vacuum()` returns its promise.
	 */
	private vacuumIfDirty(): void {
		const { minDirtCount, minDirtFactor } = VACUUM_CONDITIONS;
		if (this.ms.dirtCount < minDirtCount || this.ms.dirtFactor < minDirtFactor) return;
		// The pass is synchronous (above); what it left undone, the next vacuum does.
		void this.ms.vacuum({ batchSize: Number.MAX_SAFE_INTEGER, batchWait: 0 }).catch(() => undefined);
	}

	clear(): void {
		this.ms.removeAll();
		this.recent.clear();
		this.recentChars = 0;
		this.terms.clear();
		this.words = { seen: new Set(), list: [], complete: true };
	}

	/** Distinct words of a document's content as indexed (stop words included; 0 when unknown). */
	contentLength(id: string): number {
		const ms = internalsOf(this.ms);
		const short = ms._idToShortId.get(id);
		return short === undefined ? 0 : (ms._fieldLength.get(short)?.[ms._fieldIds.content] ?? 0);
	}

	/**
	 * Best-first hits for `query` among ids accepted by `accept`, at most `cap` of them. An empty
	 * result means no query term matched (or every term was a stop word). Terms in `notDates` do not
	 * match the `dates` field (a month word read as a name; the fuzzy fallback ignores it).
	 */
	search(query: string, accept: ((id: string) => boolean) | undefined, cap: number, within?: Collection, notDates?: ReadonlySet<string>): LexicalHit[] {
		const t = LEXICAL_TUNING;
		const termBoost = within ? this.collectionBoosts(query, within) : undefined;
		const pruned = this.pruneCommon(query, within);
		// The best `cap` straight from the postings (bm25.ts); minisearch itself for what that does not cover.
		const top =
			t.fuzzy > 0
				? undefined
				: searchTop(
						this.ms as MiniSearch<unknown>,
						pruned,
						{
							filter: accept,
							prefix: (term) => term.length >= t.prefixMin,
							weights: { prefix: t.prefixWeight },
							bm25: t.bm25,
							boostTerm: termBoost ? (term) => termBoost.get(term) ?? 1 : undefined,
							...contextOptions(t.context),
							...(notDates && { except: { field: 'dates', terms: notDates } }),
						},
						cap,
					);
		if (top) return top;
		const res: SearchResult[] = this.ms.search(pruned, {
			filter: accept ? (r) => accept(r.id as string) : undefined,
			prefix: (term) => term.length >= t.prefixMin,
			fuzzy: (term) => (t.fuzzy > 0 && term.length >= 6 ? t.fuzzy : false),
			weights: { fuzzy: 0.45, prefix: t.prefixWeight },
			...contextOptions(t.context),
			bm25: t.bm25,
			boostTerm: termBoost ? (term) => termBoost.get(term) ?? 1 : undefined,
		});
		const n = Math.min(cap, res.length);
		const out: LexicalHit[] = new Array(n);
		for (let i = 0; i < n; i++) out[i] = { id: res[i].id as string, score: res[i].score, queryTerms: res[i].queryTerms };
		return out;
	}

	/** The query without words too common to matter (see LEXICAL_TUNING.pruneShare). */
	private pruneCommon(query: string, within?: Collection): string {
		const ms = internalsOf(this.ms);
		const total = within ? within.size : ms._documentCount;
		if (total < LEXICAL_TUNING.pruneMinDocs) return query;
		const content = ms._fieldIds.content;
		const tokens = tokenize(query);
		const common = tokens.map((tok) => {
			const term = processTerm(tok);
			const postings = term === null ? undefined : postingsOf(ms._index.get(term), content);
			if (!postings) return term === null;
			let df = postings.size;
			if (within && df > total * LEXICAL_TUNING.pruneShare) {
				df = 0;
				for (const shortId of postings.keys()) {
					const id = ms._documentIds.get(shortId);
					if (id !== undefined && within.has(id)) df++;
				}
			}
			return df > total * LEXICAL_TUNING.pruneShare;
		});
		return common.every((c) => c) ? query : tokens.filter((_, i) => !common[i]).join(' ');
	}

	/**
	 * Per query term, the factor turning minisearch's global idf into the collection's idf
	 * (content field statistics; the other fields are short and follow the same correction).
	 */
	private collectionBoosts(query: string, within: Collection): Map<string, number> {
		const ms = internalsOf(this.ms);
		const content = ms._fieldIds.content;
		const out = new Map<string, number>();
		for (const tok of tokenize(query)) {
			const term = processTerm(tok);
			if (term === null || out.has(term)) continue;
			const postings = postingsOf(ms._index.get(term), content);
			if (!postings || postings.size === 0) continue;
			let local = 0;
			for (const shortId of postings.keys()) {
				const id = ms._documentIds.get(shortId);
				if (id !== undefined && within.has(id)) local++;
			}
			const global = idf(ms._documentCount, postings.size);
			out.set(term, global > 0 ? idf(within.size, local) / global : 1);
		}
		return out;
	}

	/**
	 * Whether memory `id` holds the processed term `term` in its own words (content, entity names
	 * or metadata values, not the turn context): entity-focus.ts asks it of a few hundred
	 * candidates per recall, one map lookup each.
	 */
	holds(id: string, term: string): boolean {
		const ms = internalsOf(this.ms);
		const short = ms._idToShortId.get(id);
		const data = short === undefined ? undefined : ms._index.get(term);
		if (!data) return false;
		for (const field of ['content', 'entities', 'metadata'] as const) if (data.get(ms._fieldIds[field])?.has(short!)) return true;
		return false;
	}

	/** Makes, in steps, what a restore left packed and a write would need (see term-index.ts). */
	async settle(pause: () => Promise<void>): Promise<void> {
		const index = internalsOf(this.ms)._index;
		if (index instanceof PackedTermIndex) await index.settle(pause);
	}

	/** The index in packed binary form, for snapshots (see lexical-codec.ts); with `slotOf`, documents are named by slot. */
	pack(slotOf?: ReadonlyMap<string, number>): PackedLexical {
		return packLexical(this.ms as MiniSearch<unknown>, slotOf);
	}

	/** {@link pack} in steps (see steps.ts); the index must not change until it returns. */
	packInSteps(slotOf?: ReadonlyMap<string, number>): Steps<PackedLexical> {
		return packLexicalInSteps(this.ms as MiniSearch<unknown>, slotOf);
	}

	/** Rebuilds from `pack()` output (`slots`: the slots' ids and the id → slot map, for a form packed by slot). */
	static unpack(p: PackedLexical, slots?: SlotNames): LexicalIndex {
		const ms = new MiniSearch<LexicalDoc>(OPTIONS);
		unpackLexical(p, ms as MiniSearch<unknown>, slots);
		return new LexicalIndex(ms);
	}
}
