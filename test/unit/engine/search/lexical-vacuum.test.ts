/**
 * minisearch vacuums discarded documents in batches, waiting between them while it walks its
 * term tree; a document added meanwhile can split a tree node the walk still has to visit, and
 * the walk then throws `TypeError: Cannot read properties of undefined (reading 'keys')`
 * (uncaught: nothing awaits an automatic vacuum). A full disk made it common: every failed
 * store discards the batch it had indexed, and the next store adds while the vacuum waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../../../src/engine/search/lexical';

const doc = (id: string, content: string) => ({ id, content, summary: '', tags: '', entities: '', dates: '', metadata: '', context: '' });

/** A word made of letters only (the tokeniser keeps it whole), distinct per n. */
function word(n: number): string {
	let s = '';
	do {
		s += String.fromCharCode(97 + (n % 26));
		n = Math.floor(n / 26);
	} while (n > 0);
	return `zq${s}word`;
}

const seen: unknown[] = [];
const onRejection = (e: unknown) => seen.push(e);

afterEach(() => {
	process.off('unhandledRejection', onRejection);
	seen.length = 0;
});

describe('LexicalIndex vacuuming', () => {
	it('adds while discarded documents are cleaned up throw nothing, and searches stay right', async () => {
		process.on('unhandledRejection', onRejection);
		const l = new LexicalIndex();
		// Thousands of distinct terms, so a vacuum needs several batches (minisearch waits 10 ms between them).
		for (let i = 0; i < 4000; i++) l.upsert(doc(`d${i}`, `${word(i * 5)} ${word(i * 5 + 1)} ${word(i * 5 + 2)} ${word(i * 5 + 3)} ${word(i * 5 + 4)}`));
		// A failed write's rollback: its documents discarded (enough dirt for an automatic vacuum).
		for (let i = 0; i < 1000; i++) l.remove(`d${i}`);
		// The next writes land while that vacuum waits between batches: their terms split tree nodes.
		for (let round = 0; round < 40; round++) {
			await new Promise((r) => setTimeout(r, 3));
			// 'zq…wox' splits the tree edge 'word' under 'zq…' into 'wo' → 'rd' | 'x'.
			for (let i = 0; i < 60; i++) l.upsert(doc(`n${round}-${i}`, word(20_000 + round * 60 + i).replace(/word$/, 'wox')));
		}
		await new Promise((r) => setTimeout(r, 600));
		expect(seen).toEqual([]);
		expect(l.size).toBe(3000 + 40 * 60);
		expect(l.search(word(0), undefined, 10)).toEqual([]);
		expect(l.search(word(7500), undefined, 10).map((h) => h.id)).toEqual(['d1500']);
		expect(l.search(word(20_000 + 39 * 60).replace(/word$/, 'wox'), undefined, 10).map((h) => h.id)).toEqual(['n39-0']);
	});
});
