/**
 * The lexical side of the index: minisearch (BM25+) over a memory's content, summary, tags,
 * entity names and date words, with Engram's own tokeniser, stop words and stemmer
 * (core/text.ts). Summary, tags and entities are boosted because they are short, deliberate
 * descriptions of the memory; date words let "when…" and "in May 2023" queries match.
 */
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import { processTerm, tokenize } from '../../core/text';

/** The fields of one indexed document. */
export interface LexicalDoc {
	id: string;
	content: string;
	summary: string;
	tags: string;
	entities: string;
	dates: string;
}

const FIELDS = ['content', 'summary', 'tags', 'entities', 'dates'] as const;

/** Field boosts: short, deliberate descriptions weigh more than running text. */
export const FIELD_BOOSTS: Readonly<Record<(typeof FIELDS)[number], number>> = {
	content: 1,
	summary: 2,
	tags: 1.5,
	entities: 1.5,
	dates: 1,
};

/** Minimum processed-term length for prefix matching ("photograph" → "photography"). */
const PREFIX_MIN = 5;

const OPTIONS: Options<LexicalDoc> = {
	idField: 'id',
	fields: [...FIELDS],
	storeFields: [],
	tokenize: (text) => tokenize(text),
	processTerm: (term) => processTerm(term),
	searchOptions: {
		boost: { ...FIELD_BOOSTS },
		prefix: (term) => term.length >= PREFIX_MIN,
		combineWith: 'OR',
		// Prefix matches count for less than exact ones (minisearch's default is 0.375).
		weights: { fuzzy: 0.45, prefix: 0.3 },
	},
};

/** One lexical hit: the memory id, its BM25 score and the processed query terms it matched. */
export interface LexicalHit {
	id: string;
	score: number;
	queryTerms: string[];
}

/** A minisearch index with upsert/remove by id and JSON snapshots. */
export class LexicalIndex {
	private ms: MiniSearch<LexicalDoc>;

	constructor(ms?: MiniSearch<LexicalDoc>) {
		this.ms = ms ?? new MiniSearch<LexicalDoc>(OPTIONS);
	}

	get size(): number {
		return this.ms.documentCount;
	}

	/** Adds or replaces a document. */
	upsert(doc: LexicalDoc): void {
		if (this.ms.has(doc.id)) this.ms.discard(doc.id);
		this.ms.add(doc);
	}

	remove(id: string): void {
		if (this.ms.has(id)) this.ms.discard(id);
	}

	clear(): void {
		this.ms.removeAll();
	}

	/**
	 * Best-first hits for `query` among ids accepted by `accept`, at most `cap` of them. An empty
	 * result means no query term matched (or every term was a stop word).
	 */
	search(query: string, accept: (id: string) => boolean, cap: number): LexicalHit[] {
		const res: SearchResult[] = this.ms.search(query, { filter: (r) => accept(r.id as string) });
		const n = Math.min(cap, res.length);
		const out: LexicalHit[] = new Array(n);
		for (let i = 0; i < n; i++) out[i] = { id: res[i].id as string, score: res[i].score, queryTerms: res[i].queryTerms };
		return out;
	}

	/** The index as a plain object (minisearch's serialisation). */
	toJS(): unknown {
		return this.ms.toJSON();
	}

	/** Rebuilds from `toJS()` output. */
	static fromJS(js: unknown): LexicalIndex {
		return new LexicalIndex(MiniSearch.loadJS(js as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS));
	}
}
