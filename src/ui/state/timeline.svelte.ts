/**
 * Pages the timeline through `engine.timeline({offset, limit})` for the virtual list: only the
 * pages around the visible rows are loaded, so 100k memories cost a few hundred rows of memory.
 */
import type { MemoryBrief, TimelineInput } from '../../core/schemas';
import type { EngineProxy } from './engine-proxy';

const PAGE_SIZE = 100;
/** Pages kept in memory; far-away pages are dropped and re-read when scrolled back to. */
const MAX_PAGES = 40;

/** A lazily loaded, windowed view of the timeline under a filter. */
export class TimelinePager {
	total = $state(0);
	loaded = $state(false);
	error = $state<string | undefined>(undefined);
	/** Bumped when a page arrives; `get` reads it so rows re-render. */
	#version = $state(0);
	#pages = new Map<number, MemoryBrief[]>();
	#pending = new Map<number, Promise<void>>();
	#engine: EngineProxy;
	#filter: Omit<TimelineInput, 'offset' | 'limit'> = {};
	#generation = 0;

	constructor(engine: EngineProxy) {
		this.#engine = engine;
	}

	/** Restarts under a new filter (or after a change): reloads the first page and the total. */
	async reset(filter: Omit<TimelineInput, 'offset' | 'limit'>, keepRange?: { start: number; end: number }): Promise<void> {
		this.#filter = filter;
		this.#generation++;
		this.#pages.clear();
		this.#pending.clear();
		await this.ensure(keepRange?.start ?? 0, keepRange?.end ?? PAGE_SIZE);
		this.loaded = true;
		this.#version++;
	}

	/** The memory at a row, or undefined while its page loads. */
	get(index: number): MemoryBrief | undefined {
		void this.#version;
		return this.#pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
	}

	/** The ids of rows [start, end) that are loaded (for bulk actions over a range). */
	loadedIds(): string[] {
		void this.#version;
		return [...this.#pages.values()].flat().map((m) => m.id);
	}

	/** Loads the pages covering rows [start, end). */
	async ensure(start: number, end: number): Promise<void> {
		const first = Math.floor(Math.max(0, start) / PAGE_SIZE);
		const last = Math.floor(Math.max(0, end - 1) / PAGE_SIZE);
		const work: Promise<void>[] = [];
		for (let p = first; p <= last; p++) work.push(this.#load(p));
		await Promise.all(work);
		this.#evict(first, last);
	}

	#load(page: number): Promise<void> {
		if (this.#pages.has(page)) return Promise.resolve();
		const pending = this.#pending.get(page);
		if (pending) return pending;
		const generation = this.#generation;
		const promise = this.#engine
			.timeline({ ...this.#filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE })
			.then((out) => {
				if (generation !== this.#generation) return;
				this.#pages.set(page, out.memories);
				this.total = out.total;
				this.error = undefined;
				this.#version++;
			})
			.catch((e: unknown) => {
				if (generation === this.#generation) this.error = e instanceof Error ? e.message : String(e);
			})
			.finally(() => this.#pending.delete(page));
		this.#pending.set(page, promise);
		return promise;
	}

	#evict(first: number, last: number): void {
		if (this.#pages.size <= MAX_PAGES) return;
		const far = [...this.#pages.keys()].sort((a, b) => Math.abs(b - (first + last) / 2) - Math.abs(a - (first + last) / 2));
		for (const p of far.slice(0, this.#pages.size - MAX_PAGES)) this.#pages.delete(p);
	}
}
