/**
 * Keeps several engines on one database in step. Each open tab runs its own engine worker with
 * its own in-memory index; without this, a memory stored in one tab would exist in IndexedDB
 * but never be recalled in another, and that tab's next snapshot would persist the gap. After
 * every committed write an engine posts a notice (which memories and links changed) on a
 * BroadcastChannel named after the database; the others re-read exactly those records and
 * mirror them into their index, then tell their own subscribers.
 */
import { linksByKey } from '../store/associations';
import type { ChangeNotice, EngineContext } from './context';
import { toDocMeta, toDocText } from './doc';
import type { ChangeEvent } from './types';

/** The channel of one database; a no-op where BroadcastChannel does not exist. */
export class CrossTab {
	readonly #channel: BroadcastChannel | undefined;
	#queued: ChangeNotice[] = [];

	constructor(dbName: string, onNotice: (n: ChangeNotice) => void) {
		if (typeof BroadcastChannel === 'undefined') return;
		this.#channel = new BroadcastChannel(`engram:${dbName}`);
		this.#channel.onmessage = (e: MessageEvent<ChangeNotice>) => onNotice(e.data);
		// Node keeps the process alive while a channel is open; a browser tab does not care.
		(this.#channel as unknown as { unref?: () => void }).unref?.();
	}

	/**
	 * Tells the other engines about a committed write, in a task of its own: cloning and posting
	 * the notice was ~0.35 ms of a single store that the caller's answer waited behind (issue 25).
	 * Notices go in the order posted; the receivers' StampTracker does not need them in order anyway.
	 */
	post(n: ChangeNotice): void {
		if (!this.#channel) return;
		this.#queued.push(n);
		if (this.#queued.length === 1) setTimeout(() => this.#flush(), 0);
	}

	/** Posts what is queued, then closes the channel. */
	close(): void {
		this.#flush();
		this.#channel?.close();
	}

	#flush(): void {
		const notices = this.#queued;
		this.#queued = [];
		for (const n of notices)
			try {
				this.#channel?.postMessage(n);
			} catch {
				// A closed channel (engine closing) has no one left to tell.
			}
	}
}

/**
 * Which write stamps this engine's index reflects. Every write bumps the database stamp by one
 * and posts a notice, so the index is complete up to S once it has seen every stamp up to S —
 * its own commits and other tabs' notices, which may arrive out of order. Only a complete index
 * may be persisted as the snapshot for the database's stamp.
 */
export class StampTracker {
	#complete: number;
	readonly #ahead = new Set<number>();

	constructor(openedAt: number) {
		this.#complete = openedAt;
	}

	/** The highest stamp up to which every write is reflected. */
	get complete(): number {
		return this.#complete;
	}

	/** Records that the write with `stamp` is reflected in the index. */
	see(stamp: number): void {
		if (stamp <= this.#complete) return;
		this.#ahead.add(stamp);
		while (this.#ahead.delete(this.#complete + 1)) this.#complete++;
	}
}

/** Mirrors another engine's committed write into this engine's index; returns the event to emit. */
export async function applyNotice(ctx: EngineContext, n: ChangeNotice): Promise<ChangeEvent | undefined> {
	if (n.wipe) {
		ctx.index.clear();
		return { kind: 'wipe' };
	}
	const model = ctx.embedder.modelId;
	const { rows, links } = await ctx.db.read(async () => ({
		rows: await ctx.db.memories.bulkGet(n.upserts),
		links: await linksByKey(ctx.db, n.edges),
	}));
	for (const id of n.removed) ctx.index.remove(id);
	rows.forEach((r, i) => {
		if (r) ctx.index.upsert(toDocMeta(r), toDocText(r), r.vectors?.[model] ?? null);
		else ctx.index.remove(n.upserts[i]);
	});
	links.forEach((a, i) => {
		const [from, to, type] = n.edges[i];
		if (a) ctx.index.addEdge({ from, to, type, strength: a.strength });
		else ctx.index.removeEdge(from, to, type);
	});
	const ids = [...n.upserts, ...n.removed];
	if (ids.length) return { kind: 'memories', ids };
	return n.edges.length ? { kind: 'associations', ids: [...new Set(n.edges.flatMap(([a, b]) => [a, b]))] } : undefined;
}
