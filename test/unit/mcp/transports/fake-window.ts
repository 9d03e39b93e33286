/**
 * A stand-in for browser windows in Node, faithful to what postMessage guarantees: delivery is
 * asynchronous, data is structured-cloned, the event carries the sender's origin and window, and
 * a message whose targetOrigin does not match the receiver's origin is silently dropped.
 *
 * As in a browser, each window sees another through a proxy: `a.seenFrom(b)` is window `a` as
 * code in `b` holds it (posting through it sends from `b`), and the same proxy object is the
 * `event.source` of messages `a` sends to `b`. Real browser behaviour is covered by the e2e tests;
 * this keeps the wire logic testable in Node.
 */

/** Window `target` as code in another window holds it. */
export interface WindowView {
	postMessage(data: unknown, targetOrigin: string): void;
	readonly closed: boolean;
}

export class FakeWindow extends EventTarget implements WindowView {
	readonly location: {
		origin: string;
		ancestorOrigins?: string[];
		hash: string;
		pathname: string;
		search: string;
	};
	/** Enough of History for the host to clean a pairing link off the address. */
	readonly history = {
		state: null,
		replaceState: (_state: unknown, _title: string, url: string) => {
			const i = url.indexOf('#');
			this.location.hash = i === -1 ? '' : url.slice(i);
		},
	};
	readonly #views = new Map<FakeWindow, WindowView>();
	#parent?: FakeWindow;
	closed = false;
	/** Every message delivered to this window, for asserting what it was (not) sent. */
	readonly received: { data: unknown; origin: string }[] = [];

	constructor(origin: string, parent?: FakeWindow) {
		super();
		this.#parent = parent;
		this.location = {
			origin,
			hash: '',
			pathname: '/',
			search: '',
			...(parent ? { ancestorOrigins: [parent.location.origin] } : {}),
		};
	}

	/** The parent as this window sees it (itself when top-level). */
	get parent(): WindowView {
		return this.#parent ? this.#parent.seenFrom(this) : this;
	}

	/** This window as code in `viewer` holds it. */
	seenFrom(viewer: FakeWindow): WindowView {
		if (viewer === this) return this;
		let view = this.#views.get(viewer);
		if (!view) {
			const isClosed = () => this.closed;
			view = {
				postMessage: (data, targetOrigin) => this.#deliver(data, targetOrigin, viewer),
				get closed() {
					return isClosed();
				},
			};
			this.#views.set(viewer, view);
		}
		return view;
	}

	/** A post by this window's own code to itself. */
	postMessage(data: unknown, targetOrigin: string): void {
		this.#deliver(data, targetOrigin, this);
	}

	#deliver(data: unknown, targetOrigin: string, sender: FakeWindow): void {
		if (this.closed) return;
		const clone = structuredClone(data);
		setTimeout(() => {
			if (targetOrigin !== '*' && targetOrigin !== this.location.origin) return;
			this.received.push({ data: clone, origin: sender.location.origin });
			const ev = new Event('message');
			Object.defineProperties(ev, {
				data: { value: clone },
				origin: { value: sender.location.origin },
				source: { value: sender.seenFrom(this) },
			});
			this.dispatchEvent(ev);
		}, 0);
	}

	/** Installs this window as `globalThis.window` (MCP-B's transports use the global); returns the undo. */
	installAsGlobal(): () => void {
		const g = globalThis as { window?: unknown };
		const before = g.window;
		g.window = this;
		return () => {
			g.window = before;
		};
	}
}

/** Waits until `check` passes or `ms` elapse (for asynchronous delivery). */
export async function eventually(check: () => void | Promise<void>, ms = 2000): Promise<void> {
	const deadline = Date.now() + ms;
	for (;;) {
		try {
			return await check();
		} catch (e) {
			if (Date.now() > deadline) throw e;
			await new Promise((r) => setTimeout(r, 10));
		}
	}
}

/** Lets pending message deliveries run. */
export const flush = (ms = 30) => new Promise((r) => setTimeout(r, ms));
