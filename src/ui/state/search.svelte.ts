/**
 * Search-as-you-type: the query and filters the person set, turned into a debounced hybrid
 * recall (the same engine call agents make), with stale answers dropped. With no query and no
 * current-only filter the memories view browses the timeline instead (see TimelinePager).
 *
 * Time phrases are read here, in the person's own time zone: the When field's phrase, and one
 * typed in the search box ("billing last week"), which becomes the time filter (a removable
 * chip) instead of words to search. Both reach the engine as start/end.
 */
import { extractTimeMentions, type TimeRange } from '../../core/time';
import { localWindow, whenError } from '../time-words';
import { RecallInputSchema, type MemoryType, type RecallInput, type RecallResult, type RecallWeights, type TimelineInput } from '../../core/schemas';
import type { EngineProxy } from './engine-proxy';

/** The filters above the list; every one maps onto a recall/timeline argument. */
export interface Filters {
	tags: string[];
	excludeTags: string[];
	tagMode: 'any' | 'all';
	types: MemoryType[];
	scope: string;
	/** A natural phrase ("last week", "yesterday", "in March 2024") or empty. */
	time: string;
	currentOnly: boolean;
	sort: 'score' | 'time_desc' | 'time_asc';
}

/** Filters with nothing set. */
export function emptyFilters(): Filters {
	return { tags: [], excludeTags: [], tagMode: 'any', types: [], scope: '', time: '', currentOnly: false, sort: 'score' };
}

const PAGE = 30;

/** The window a time phrase means in the local time zone (see `localWindow` in time-words). */
export { localWindow };

/** A time phrase found in the search box: the phrase, the words left to search, its window. */
export interface QueryTime {
	phrase: string;
	rest: string;
	window: TimeRange;
}

/**
 * The first time phrase of a query that reads as a time filter ("billing last week", "in May",
 * or the whole query), with the query's other words; undefined when it names no time.
 */
export function splitTimePhrase(query: string, now: number): QueryTime | undefined {
	const q = query.trim();
	if (!q) return undefined;
	// Words in quotes are words to find ("\"last week\"" searches the text), never a time filter.
	const quoted = quotedSpans(q);
	if (!quoted.length) {
		const whole = localWindow(q, now);
		if (whole) return { phrase: q, rest: '', window: whole };
	}
	for (const m of extractTimeMentions(q, now)) {
		const window = localWindow(m.phrase, now);
		if (!window) continue;
		const at = q.toLowerCase().indexOf(m.phrase.toLowerCase());
		if (at < 0 || quoted.some(([s, e]) => at < e && at + m.phrase.length > s)) continue;
		const rest = `${q.slice(0, at)} ${q.slice(at + m.phrase.length)}`.replace(/\s+/g, ' ').trim();
		return { phrase: q.slice(at, at + m.phrase.length), rest, window };
	}
	return undefined;
}

/** Where the query's quoted stretches are ("…", '…', “…”), as [start, end) offsets; an unclosed quote runs to the end. */
function quotedSpans(q: string): [number, number][] {
	const spans: [number, number][] = [];
	const re = /["“”]([^"“”]*)(["“”]|$)|(?<![\w])'([^']*)('(?![\w])|$)/g;
	for (let m = re.exec(q); m; m = re.exec(q)) spans.push([m.index, m.index + m[0].length]);
	return spans;
}

/** A window in the person's words: "Mon 23 Nov – Sun 29 Nov 2026" (the end is exclusive). */
export function describeWindow(w: TimeRange): string {
	const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
	const s = w.start ? day(Date.parse(w.start)) : undefined;
	const e = w.end ? day(Date.parse(w.end) - 1) : undefined;
	if (s && e) return s === e ? s : `${s} – ${e}`;
	return s ? `from ${s}` : `until ${e}`;
}
/** Settings key of the person's ranking weights. */
export const WEIGHTS_KEY = 'recall_weights';
const DEBOUNCE_MS = 160;

/** The search box, its filters and its results. One per app, so a search survives navigation. */
export class Search {
	query = $state('');
	filters = $state<Filters>(emptyFilters());
	results = $state<RecallResult[]>([]);
	hasMore = $state(false);
	loading = $state(false);
	/** A search is scheduled (typing has not paused yet). */
	pending = $state(false);
	lexicalOnly = $state(false);
	/** The engine's message for bad input (it names the field, e.g. time_query). */
	error = $state<string | undefined>(undefined);
	/** The person's ranking weights (Settings), applied to the app's searches. */
	weights = $state<RecallWeights | undefined>(undefined);
	/** The saved weights have been read (or could not be): until then Settings cannot show them. */
	weightsLoaded = $state(false);
	/** Strong matches over all pages (the rest of the results are weaker matches). */
	matched = $state(0);
	/** The instant time phrases are read against; renewed on every change. */
	now = $state(Date.now());
	/**
	 * A whole-query time phrase whose chip was removed: it is then searched as words ("3 March"
	 * finds "Dentist on 3 March" stored any day), until the query no longer reads as it.
	 */
	#asWords = $state<string | undefined>(undefined);
	#engine: EngineProxy;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#generation = 0;
	/** The saved weights being read: the first search waits for them (it ran with the defaults). */
	#weightsRead: Promise<void> | undefined;
	#weightsSaved = false;

	constructor(engine: EngineProxy) {
		this.#engine = engine;
	}

	/** A time phrase in the search box, read as the time filter (unless the When field has one). */
	get queryTime(): QueryTime | undefined {
		if (this.filters.time.trim()) return undefined;
		const t = splitTimePhrase(this.query, this.now);
		return t && t.phrase.toLowerCase() === this.#asWords ? undefined : t;
	}

	/** The words searched: the query without its time phrase. */
	get words(): string {
		return this.queryTime?.rest ?? this.query.trim();
	}

	/** The When field read as a window, or why it cannot be. */
	get when(): { window?: TimeRange; error?: string } {
		const phrase = this.filters.time.trim();
		if (!phrase) return {};
		const window = localWindow(phrase, this.now);
		if (window) return { window };
		return { error: whenError(phrase, (p) => localWindow(p, this.now)) };
	}

	/** The time window every list and search uses: the When field's, else the search box's. */
	get window(): TimeRange | undefined {
		return this.when.window ?? this.queryTime?.window;
	}

	/**
	 * Removes the search box's time filter (its chip's × button): the phrase leaves the query, or,
	 * when it is the whole query, stays and is searched as words.
	 */
	dropQueryTime(): void {
		const t = this.queryTime;
		if (t && t.rest) this.query = t.rest;
		else if (t) this.#asWords = t.phrase.toLowerCase();
		void this.run();
	}

	/** True from a keystroke until its results are shown: the screen says so (`data-state`), and tests wait for it. */
	get busy(): boolean {
		return this.pending || this.loading;
	}

	/** True when the list shows ranked recall results rather than the timeline. */
	get searching(): boolean {
		return this.words !== '' || this.filters.currentOnly;
	}

	/** How many filters are set (for the filter button's badge). */
	get activeFilterCount(): number {
		const f = this.filters;
		return (
			(f.tags.length ? 1 : 0) +
			(f.excludeTags.length ? 1 : 0) +
			(f.types.length ? 1 : 0) +
			(f.scope ? 1 : 0) +
			(f.time.trim() || this.queryTime ? 1 : 0) +
			(f.currentOnly ? 1 : 0)
		);
	}

	/** The recall arguments for the current query and filters. */
	recallInput(offset = 0): RecallInput {
		const f = this.filters;
		const input: RecallInput = { limit: PAGE, offset, max_content_chars: 600 };
		if (this.words) input.query = this.words;
		if (f.tags.length) Object.assign(input, { tags: f.tags, tag_mode: f.tagMode });
		if (f.excludeTags.length) input.exclude_tags = f.excludeTags;
		if (f.types.length) input.types = f.types;
		if (f.scope) input.scope = f.scope;
		Object.assign(input, this.window);
		if (f.currentOnly) input.current_only = true;
		if (this.weights && Object.keys(this.weights).length) input.weights = this.weights;
		input.sort = input.query ? f.sort : f.sort === 'score' ? 'time_desc' : f.sort;
		return input;
	}

	/** The timeline filter for browsing (same filters, minus those only recall knows). */
	timelineInput(): Omit<TimelineInput, 'offset' | 'limit'> {
		const f = this.filters;
		const input: Omit<TimelineInput, 'offset' | 'limit'> = {
			order: f.sort === 'time_asc' ? 'asc' : 'desc',
			max_content_chars: 300,
		};
		if (f.tags.length) Object.assign(input, { tags: f.tags, tag_mode: f.tagMode });
		if (f.excludeTags.length) input.exclude_tags = f.excludeTags;
		if (f.types.length) input.types = f.types;
		if (f.scope) input.scope = f.scope;
		Object.assign(input, this.window);
		return input;
	}

	/**
	 * Loads the saved ranking weights (settings key `recall_weights`), once: the app calls it at
	 * start and every search waits for it. Never called before, the weights a person saved were
	 * neither used nor shown in Settings after a reload.
	 */
	loadWeights(): Promise<void> {
		this.#weightsRead ??= this.#engine.getSetting(WEIGHTS_KEY).then(
			(w) => {
				// A save made while reading wins.
				if (!this.#weightsSaved) this.weights = (w as RecallWeights | null | undefined) ?? undefined;
				this.weightsLoaded = true;
			},
			() => {
				this.weightsLoaded = true;
			},
		);
		return this.#weightsRead;
	}

	/** Saves ranking weights for the app's searches; undefined restores the defaults. */
	async saveWeights(weights: RecallWeights | undefined): Promise<void> {
		this.#weightsSaved = true;
		await this.#engine.setSetting(WEIGHTS_KEY, weights ?? null);
		this.weights = weights;
		this.weightsLoaded = true;
		if (this.searching) this.schedule();
	}

	/** Schedules a search after typing pauses. */
	schedule(): void {
		this.now = Date.now();
		clearTimeout(this.#timer);
		this.pending = true;
		this.#timer = setTimeout(() => void this.run(), DEBOUNCE_MS);
	}

	/** Runs the search now (first page). */
	async run(): Promise<void> {
		clearTimeout(this.#timer);
		this.pending = false;
		if (!this.searching) {
			this.#generation++;
			this.results = [];
			this.hasMore = false;
			this.loading = false;
			return;
		}
		await this.#fetch(0);
	}

	/** Appends the next page of results. */
	async more(): Promise<void> {
		if (this.hasMore && !this.loading) await this.#fetch(this.results.length);
	}

	clear(): void {
		this.query = '';
		this.#asWords = undefined;
		this.filters = emptyFilters();
		void this.run();
	}

	async #fetch(offset: number): Promise<void> {
		const generation = ++this.#generation;
		await this.loadWeights();
		const input = this.recallInput(offset);
		const parsed = RecallInputSchema.safeParse(input);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			this.error = `${issue.path.join('.')}: ${issue.message}`;
			return;
		}
		this.loading = true;
		try {
			const out = await this.#engine.recall(parsed.data, { actor: 'app' });
			if (generation !== this.#generation) return;
			this.results = offset === 0 ? out.results : [...this.results, ...out.results];
			this.hasMore = out.has_more;
			this.matched = offset === 0 ? (out.matched ?? out.results.length) : Math.max(this.matched, out.matched ?? 0);
			this.lexicalOnly = out.lexical_only ?? false;
			this.error = undefined;
		} catch (e) {
			if (generation !== this.#generation) return;
			this.error = e instanceof Error ? e.message : String(e);
			if (offset === 0) this.results = [];
		} finally {
			if (generation === this.#generation) this.loading = false;
		}
	}
}
