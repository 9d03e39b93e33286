/**
 * Retrieval metrics for the eval: recall@k as the fraction of a question's gold turns found in
 * the top k, averaged per question, overall and per category.
 */

/** Fraction of `gold` present in the first `k` of `ranked`. */
export function recallAtK(ranked: string[], gold: string[], k: number): number {
	if (gold.length === 0) return 1;
	const top = new Set(ranked.slice(0, k));
	return gold.filter((g) => top.has(g)).length / gold.length;
}

/** One question's outcome. */
export interface Outcome {
	category: string;
	r5: number;
	r10: number;
	r50?: number;
}

/** Averages by category plus 'overall'. */
export function summarise(outcomes: Outcome[]): Map<string, { n: number; r5: number; r10: number; r50: number }> {
	const acc = new Map<string, { n: number; r5: number; r10: number; r50: number }>();
	const add = (key: string, o: Outcome) => {
		const a = acc.get(key) ?? { n: 0, r5: 0, r10: 0, r50: 0 };
		a.n++;
		a.r5 += o.r5;
		a.r10 += o.r10;
		a.r50 += o.r50 ?? o.r10;
		acc.set(key, a);
	};
	for (const o of outcomes) {
		add('overall', o);
		add(o.category, o);
	}
	for (const a of acc.values()) {
		a.r5 /= a.n;
		a.r10 /= a.n;
		a.r50 /= a.n;
	}
	return acc;
}

/** Formats rows as a fixed-width text table. */
export function table(header: string[], rows: (string | number)[][]): string {
	const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? c.toFixed(3) : c)))];
	const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
	const line = (r: (string | number)[]) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ');
	return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
