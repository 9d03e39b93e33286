/**
 * The one "read every page, up to a cap" loop: label and source scans, entity chronologies and
 * the graph's memory scan all page a listing from offset 0 the same way, each with its own cap.
 */

/** One page of a paged listing, as the page reader needs it. */
export interface Page<T> {
	items: T[];
	has_more: boolean;
	/** Where the next page starts; offset + items.length when absent. */
	next_offset?: number;
}

/** How a paged read ended: items read, and whether it stopped at the cap with more to read. */
export interface PagesRead {
	read: number;
	truncated: boolean;
}

/**
 * Reads pages from offset 0, handing each page's items to `take`, until the listing has no more,
 * `take` returns true (enough), or at least `cap` items were read while more remain (then
 * `truncated`). A page that is empty ends the read, so a listing that says has_more without
 * items cannot loop.
 *
 * @example
 * const all: MemoryBrief[] = [];
 * const { truncated } = await readPages((offset) => list(offset), 2000, (items) => void all.push(...items));
 */
export async function readPages<T>(fetch: (offset: number) => Promise<Page<T>>, cap: number, take: (items: T[]) => boolean | void): Promise<PagesRead> {
	let read = 0;
	for (let offset = 0; ;) {
		const page = await fetch(offset);
		read += page.items.length;
		if (take(page.items) === true || !page.has_more || page.items.length === 0) return { read, truncated: false };
		offset = page.next_offset ?? offset + page.items.length;
		if (read >= cap) return { read, truncated: true };
	}
}
