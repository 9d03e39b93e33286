/**
 * Long-running work the person started (import, export, re-embedding, model download), shown
 * as progress bars with a Cancel button where the work can stop between steps.
 */

/** One piece of long work. */
export interface Task {
	id: number;
	label: string;
	done: number;
	total: number;
	message?: string;
	state: 'running' | 'done' | 'cancelled' | 'failed';
	cancellable: boolean;
}

/** A handle the worker code uses to report progress and to see whether to stop. */
export interface TaskHandle {
	readonly cancelled: boolean;
	progress(done: number, total: number, message?: string): void;
}

/** Tasks in progress and recently finished. */
export class Tasks {
	items = $state<Task[]>([]);
	#next = 1;
	#cancelled = new Set<number>();

	/** The running tasks. */
	get running(): Task[] {
		return this.items.filter((t) => t.state === 'running');
	}

	/**
	 * Runs `work` as a task: its progress shows until it ends; Cancel sets `handle.cancelled`,
	 * which the work checks between steps (it throws or returns early; nothing half-written,
	 * because each step is one engine call, one transaction).
	 */
	async run<T>(label: string, work: (handle: TaskHandle) => Promise<T>, opts: { cancellable?: boolean } = {}): Promise<T> {
		const id = this.#next++;
		this.items = [...this.items, { id, label, done: 0, total: 0, state: 'running', cancellable: opts.cancellable ?? true }];
		const cancelled = this.#cancelled;
		const handle: TaskHandle = {
			get cancelled() {
				return cancelled.has(id);
			},
			progress: (done, total, message) => this.#patch(id, { done, total, message }),
		};
		try {
			const result = await work(handle);
			this.#patch(id, this.#cancelled.has(id) ? { state: 'cancelled' } : { state: 'done', message: undefined });
			return result;
		} catch (e) {
			this.#patch(id, { state: this.#cancelled.has(id) ? 'cancelled' : 'failed', message: String((e as Error)?.message ?? e) });
			throw e;
		} finally {
			setTimeout(() => this.#remove(id), 4_000);
		}
	}

	/** Asks a task to stop at its next step. */
	cancel(id: number): void {
		this.#cancelled.add(id);
		this.#patch(id, { message: 'Cancelling…' });
	}

	#patch(id: number, patch: Partial<Task>): void {
		this.items = this.items.map((t) => (t.id === id ? { ...t, ...patch } : t));
	}

	#remove(id: number): void {
		this.items = this.items.filter((t) => t.id !== id);
		this.#cancelled.delete(id);
	}
}
