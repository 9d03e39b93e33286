/**
 * minisearch 7.2's internal state, declared once. bm25.ts scores straight off the postings,
 * lexical.ts reads per-collection document frequencies, and lexical-codec.ts packs and restores
 * the index; all three read (and the codec writes) the same protected fields that minisearch's
 * own loadJS fills. package.json pins minisearch's exact version because this layout is private,
 * and minisearch-internals.test.ts checks it on a fresh index so an upgrade that moves a field
 * fails there, by name, rather than as wrong search results.
 */
import type MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';
import type { PackedTermIndex, TermData } from './term-index';

/** minisearch's term tree (`SearchableMap<TermData>`): the part of it we call. */
export interface TermTree {
	get(term: string): TermData | undefined;
	atPrefix(prefix: string): Iterable<[string, TermData]>;
	set(term: string, data: TermData): void;
	/** The term's data, created by `initial` when missing. */
	fetch(term: string, initial: () => TermData): TermData;
	[Symbol.iterator](): Iterator<[string, TermData]>;
}

/** The options minisearch keeps after filling in its defaults (the fields a search reads). */
export interface InternalOptions {
	fields: string[];
	tokenize: (text: string) => string[];
	processTerm: (term: string) => string | string[] | null | undefined | false;
	searchOptions: SearchOptions;
}

/**
 * minisearch 7.2's protected fields. `_index` is its radix tree, or after a snapshot restore our
 * PackedTermIndex (term-index.ts), which answers `get` and `atPrefix` the same way.
 */
export interface MiniSearchInternals {
	_options: InternalOptions;
	_index: TermTree | PackedTermIndex;
	_documentCount: number;
	_nextId: number;
	/** short id → document id. */
	_documentIds: Map<number, string>;
	_idToShortId: Map<string, number>;
	/** field name → field id. */
	_fieldIds: Record<string, number>;
	/** short id → length of each field, by field id. */
	_fieldLength: Map<number, number[]>;
	/** Average length of each field, by field id. */
	_avgFieldLength: number[];
	_dirtCount: number;
	/** Drops one posting (minisearch's own clean-up of a discarded document's terms). */
	removeTerm(fieldId: number, shortId: number, term: string): void;
}

/**
 * The internals of `ms`. The one cast in the code base onto minisearch's private layout: its
 * typings declare these fields `protected`, so no public type reaches them.
 */
export function internalsOf<T>(ms: MiniSearch<T>): MiniSearchInternals {
	return ms as unknown as MiniSearchInternals;
}
