/**
 * Short-lived notifications, optionally with an action such as Undo. Repeats collapse: a toast
 * of the same group (or the same message and kind) shown again while the first is still up
 * becomes one toast with a count ("7 memories saved"), and at most MAX_VISIBLE are on screen.
 */
import { errorWords } from '../words';

/** One notification on screen. */
export interface Toast {
	id: number;
	message: string;
	kind: 'info' | 'success' | 'error';
	action?: { label: string; run: () => void | Promise<void> };
	/** Toasts of one group collapse into one. */
	group?: string;
	/** How many shows this toast stands for. */
	count: number;
}

/** Options of {@link Toasts.show}. */
export interface ToastOptions {
	kind?: Toast['kind'];
	action?: Toast['action'];
	ms?: number;
	/** Collapse with a visible toast of this group; `many(n)` words the collapsed toast. */
	group?: string;
	many?: (n: number) => string;
}

/** At most this many toasts are on screen; the oldest confirmation leaves first. */
export const MAX_VISIBLE = 3;

/** Lifetimes: a confirmation is read at a glance; an action or an error needs a little longer. */
export const TOAST_MS = { plain: 3_500, action: 6_000, error: 7_000 } as const;

/** The notification stack. */
export class Toasts {
	items = $state<Toast[]>([]);
	#next = 1;
	#timers = new Map<number, ReturnType<typeof setTimeout>>();

	/** Shows a toast (or folds it into a visible one of the same group) and returns its id. */
	show(message: string, opts: ToastOptions = {}): number {
		const kind = opts.kind ?? 'info';
		const ms = opts.ms ?? (kind === 'error' ? TOAST_MS.error : opts.action ? TOAST_MS.action : TOAST_MS.plain);
		const same = this.items.find((t) => t.kind === kind && (opts.group ? t.group === opts.group : !t.group && t.message === message));
		if (same) {
			const count = same.count + 1;
			const text = opts.many ? opts.many(count) : `${message} (×${count})`;
			this.items = this.items.map((t) => (t.id === same.id ? { ...t, message: text, count, action: opts.action ?? t.action } : t));
			this.#expire(same.id, ms);
			return same.id;
		}
		const id = this.#next++;
		let items = [...this.items, { id, message, kind, action: opts.action, group: opts.group, count: 1 }];
		while (items.length > MAX_VISIBLE) {
			const drop = items.find((t) => t.kind !== 'error') ?? items[0];
			this.#clear(drop.id);
			items = items.filter((t) => t !== drop);
		}
		this.items = items;
		this.#expire(id, ms);
		return id;
	}

	/** Shows an error in words (field and rule, without codes or schema jargon). */
	error(e: unknown, prefix = ''): number {
		const message = errorWords(e);
		return this.show(prefix ? `${prefix}: ${message}` : message, { kind: 'error' });
	}

	dismiss(id: number): void {
		this.#clear(id);
		this.items = this.items.filter((t) => t.id !== id);
	}

	#expire(id: number, ms: number): void {
		this.#clear(id);
		this.#timers.set(
			id,
			setTimeout(() => this.dismiss(id), ms),
		);
	}

	#clear(id: number): void {
		clearTimeout(this.#timers.get(id));
		this.#timers.delete(id);
	}
}
