/**
 * A bounded min-heap keeping the k best (slot, score) pairs seen. Push is O(log k) and rejects
 * anything not better than the current k-th in O(1), which is what makes brute-force scans
 * over 100k vectors cheap: almost every candidate is rejected by one comparison. Equal scores
 * go to the lower slot, so the k kept do not depend on the order of the pushes (nearest.ts
 * scores a batch's queries list by list, not query by query).
 */
export class TopK {
	private readonly k: number;
	private readonly slots: Int32Array;
	private readonly scores: Float64Array;
	private n = 0;

	constructor(k: number) {
		this.k = Math.max(0, Math.floor(k));
		this.slots = new Int32Array(this.k);
		this.scores = new Float64Array(this.k);
	}

	get size(): number {
		return this.n;
	}

	/** The score a new entry must beat once the heap is full (−∞ before). */
	get threshold(): number {
		return this.n < this.k ? -Infinity : this.scores[0];
	}

	push(slot: number, score: number): void {
		if (this.k === 0) return;
		if (this.n < this.k) {
			let i = this.n++;
			// Sift up.
			while (i > 0) {
				const p = (i - 1) >> 1;
				if (this.scores[p] < score || (this.scores[p] === score && this.slots[p] > slot)) break;
				this.slots[i] = this.slots[p];
				this.scores[i] = this.scores[p];
				i = p;
			}
			this.slots[i] = slot;
			this.scores[i] = score;
			return;
		}
		if (score < this.scores[0] || (score === this.scores[0] && slot >= this.slots[0])) return;
		this.siftDown(slot, score);
	}

	private siftDown(slot: number, score: number): void {
		let i = 0;
		const n = this.n;
		for (;;) {
			const l = 2 * i + 1;
			if (l >= n) break;
			const r = l + 1;
			const c = r < n && (this.scores[r] < this.scores[l] || (this.scores[r] === this.scores[l] && this.slots[r] > this.slots[l])) ? r : l;
			if (this.scores[c] > score || (this.scores[c] === score && this.slots[c] < slot)) break;
			this.slots[i] = this.slots[c];
			this.scores[i] = this.scores[c];
			i = c;
		}
		this.slots[i] = slot;
		this.scores[i] = score;
	}

	/** Entries best first. */
	sorted(): { slot: number; score: number }[] {
		const out: { slot: number; score: number }[] = [];
		for (let i = 0; i < this.n; i++) out.push({ slot: this.slots[i], score: this.scores[i] });
		return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
	}
}

/**
 * The best `k` slots under a comparison (`before(a, b)`: a ranks above b), for orders a single
 * number cannot carry, such as a time with the seq as tie-break. A min-heap whose root is the
 * worst kept slot; most slots are refused after one comparison with it.
 */
export class TopKBy {
	private readonly k: number;
	private readonly heap: number[] = [];

	constructor(
		k: number,
		private readonly before: (a: number, b: number) => boolean,
	) {
		this.k = Math.max(0, Math.floor(k));
	}

	push(slot: number): void {
		const h = this.heap;
		if (this.k === 0) return;
		if (h.length < this.k) {
			h.push(slot);
			for (let i = h.length - 1; i > 0;) {
				const p = (i - 1) >> 1;
				if (!this.before(h[p], h[i])) break;
				[h[p], h[i]] = [h[i], h[p]];
				i = p;
			}
			return;
		}
		if (!this.before(slot, h[0])) return;
		h[0] = slot;
		for (let i = 0; ;) {
			const l = 2 * i + 1;
			if (l >= h.length) break;
			const r = l + 1;
			// The child that ranks lower takes the root's place.
			const c = r < h.length && this.before(h[l], h[r]) ? r : l;
			if (!this.before(h[i], h[c])) break;
			[h[i], h[c]] = [h[c], h[i]];
			i = c;
		}
	}

	/** The kept slots, best first. */
	sorted(): number[] {
		return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
	}
}
