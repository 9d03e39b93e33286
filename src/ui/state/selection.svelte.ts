/** The memories ticked for a bulk action (tag, delete, export), across scrolling and paging. */
import { SvelteSet } from 'svelte/reactivity';

/** A set of selected memory ids, plus the row the keyboard is on. */
export class Selection {
	ids = new SvelteSet<string>();
	/** The row the arrow keys moved to (index in the current list). */
	cursor = $state(-1);

	get size(): number {
		return this.ids.size;
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	toggle(id: string): void {
		if (this.ids.has(id)) this.ids.delete(id);
		else this.ids.add(id);
	}

	/** Adds every id given (select all visible / loaded). */
	addAll(ids: Iterable<string>): void {
		for (const id of ids) this.ids.add(id);
	}

	clear(): void {
		this.ids.clear();
	}
}
