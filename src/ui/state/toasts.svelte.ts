/** Short-lived notifications, optionally with an action such as Undo. */

/** One notification on screen. */
export interface Toast {
	id: number;
	message: string;
	kind: 'info' | 'success' | 'error';
	action?: { label: string; run: () => void | Promise<void> };
}

/** The notification stack. Errors stay longer than confirmations; an action keeps a toast 10 s. */
export class Toasts {
	items = $state<Toast[]>([]);
	#next = 1;

	/** Shows a toast and returns its id. */
	show(message: string, opts: { kind?: Toast['kind']; action?: Toast['action']; ms?: number } = {}): number {
		const id = this.#next++;
		const kind = opts.kind ?? 'info';
		this.items = [...this.items, { id, message, kind, action: opts.action }];
		const ms = opts.ms ?? (opts.action ? 10_000 : kind === 'error' ? 8_000 : 4_000);
		setTimeout(() => this.dismiss(id), ms);
		return id;
	}

	/** Shows an error, using its message (MemoryError messages name the field and the rule). */
	error(e: unknown, prefix = ''): number {
		const message = e instanceof Error ? e.message : String(e);
		return this.show(prefix ? `${prefix}: ${message}` : message, { kind: 'error' });
	}

	dismiss(id: number): void {
		this.items = this.items.filter((t) => t.id !== id);
	}
}
