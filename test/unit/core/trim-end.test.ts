/**
 * Trailing-punctuation trims on stored and imported text are linear: `[…]+$` regexes retried from
 * every start of a long run that stopped short of the end (20,000 "’" before a letter: 16 s in
 * normaliseContent, which runs on every stored memory, and in normaliseEntityName).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseEntityName } from '../../../src/core/entities';
import { normaliseContent } from '../../../src/store/derived';

function within<T>(ms: number, f: () => T): T {
	const t = performance.now();
	const out = f();
	expect(performance.now() - t).toBeLessThan(ms);
	return out;
}

const trimEnd = (s: string, re: RegExp) => s.replace(new RegExp(`${re.source}+$`, re.flags), '');
describe('trimEnd', () => {
	it('gives what the trailing regex gave, astral characters included', () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom('a', '.', ' ', '’', '!', '\ud83d\ude00', '\u3002', '\ud800', 'x'), maxLength: 30 }), (s) => {
				expect(trimEnd(s, /[\s\p{P}]/u)).toBe(s.replace(/[\s\p{P}]+$/u, ''));
				expect(trimEnd(s, /[.!’ ]/)).toBe(s.replace(/[.!’ ]+$/, ''));
			}),
			{ numRuns: 500 },
		);
	});
});

describe('normalisers on long punctuation runs', () => {
	for (const run of ['’', '- ', '!?', '.', ')']) {
		it(`normaliseContent and normaliseEntityName take linear time on 25,000 × ${JSON.stringify(run)} between letters`, () => {
			const s = `x${run.repeat(25_000)}y`;
			expect(within(1_000, () => normaliseContent(`${s}!!`))).toBe(normaliseContent(s));
			expect(within(1_000, () => normaliseEntityName(`${s}’’`))).toBe(normaliseEntityName(s));
		});
	}
});
