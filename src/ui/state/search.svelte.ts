/**
 * Search-as-you-type: the query and filters the person set, turned into a debounced hybrid
 * recall (the same engine call agents make), with stale answers dropped. With no query and no
 * current-only filter the memories view browses the timeline instead (see TimelinePager).
 */
import {
	RecallInputSchema,
	type MemoryType,
	type RecallInput,
	type RecallResult,
	type RecallWeights,
	type TimelineInput,
} from '../../core/schemas';
import type { Engine } from './context';

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
	lexicalOnly = $state(false);
	timeWindow = $state<{ start?: string; end?: string } | undefined>(undefined);
	/** The engine's message for bad input (it names the field, e.g. time_query). */
	error = $state<string | undefined>(undefined);
	/** The person's ranking weights (Settings), applied to the app's searches. */
	weights = $state<RecallWeights | undefined>(undefined);
	#engine: Engine;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#generation = 0;

	constructor(engine: Engine) {
		this.#engine = engine;
	}

	/** True when the list shows ranked recall results rather than the timeline. */
	get searching(): boolean {
		return this.query.trim() !== '' || this.filters.currentOnly;
	}

	/** How many filters are set (for the filter button's badge). */
	get activeFilterCount(): number {
		const f = this.filters;
		return (
			(f.tags.length ? 1 : 0) +
			(f.excludeTags.length ? 1 : 0) +
			(f.types.length ? 1 : 0) +
			(f.scope ? 1 : 0) +
			(f.time.trim() ? 1 : 0) +
			(f.currentOnly ? 1 : 0)
		);
	}

	/** The recall arguments for the current query and filters. */
	recallInput(offset = 0): RecallInput {
		const f = this.filters;
		const input: RecallInput = { limit: PAGE, offset, max_content_chars: 600 };
		if (this.query.trim()) input.query = this.query.trim();
		if (f.tags.length) Object.assign(input, { tags: f.tags, tag_mode: f.tagMode });
		if (f.excludeTags.length) input.exclude_tags = f.excludeTags;
		if (f.types.length) input.types = f.types;
		if (f.scope) input.scope = f.scope;
		if (f.time.trim()) input.time_query = f.time.trim();
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
		if (f.tags.length) input.tags = f.tags;
		if (f.types.length) input.types = f.types;
		if (f.scope) input.scope = f.scope;
		if (f.time.trim()) input.time_query = f.time.trim();
		return input;
	}

	/** Loads the saved ranking weights (settings key `recall_weights`). */
	async loadWeights(): Promise<void> {
		this.weights = ((await this.#engine.getSetting(WEIGHTS_KEY)) as RecallWeights | null | undefined) ?? undefined;
	}

	/** Saves ranking weights for the app's searches; undefined restores the defaults. */
	async saveWeights(weights: RecallWeights | undefined): Promise<void> {
		await this.#engine.setSetting(WEIGHTS_KEY, weights ?? null);
		this.weights = weights;
		if (this.searching) this.schedule();
	}

	/** Schedules a search after typing pauses. */
	schedule(): void {
		clearTimeout(this.#timer);
		this.#timer = setTimeout(() => void this.run(), DEBOUNCE_MS);
	}

	/** Runs the search now (first page). */
	async run(): Promise<void> {
		clearTimeout(this.#timer);
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
		this.filters = emptyFilters();
		void this.run();
	}

	async #fetch(offset: number): Promise<void> {
		const generation = ++this.#generation;
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
			this.lexicalOnly = out.lexical_only ?? false;
			this.timeWindow = out.time_window;
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
