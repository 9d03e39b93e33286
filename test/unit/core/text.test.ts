import { describe, expect, it } from 'vitest';
import { analyze, processTerm, stem, STOP_WORDS, tokenize } from '../../../src/core/text';

describe('core/text', () => {
	describe('tokenize', () => {
		it('lower-cases, splits on non-word characters and joins contractions', () => {
			expect(tokenize("Caroline's dog didn't like the 3rd-floor walk-up!")).toEqual([
				'caroline',
				'dog',
				'didnt',
				'like',
				'the',
				'3rd',
				'floor',
				'walk',
				'up',
			]);
		});

		it('treats a typographic apostrophe as a straight one, in tokens and in processed terms', () => {
			expect(tokenize('Caroline’s dog didn’t like it')).toEqual(['caroline', 'dog', 'didnt', 'like', 'it']);
			expect([processTerm('Caroline’s'), processTerm("DIDN'T"), processTerm('Hikes')]).toEqual(['carolin', null, 'hike']);
		});

		it('keeps letters of any script and digits', () => {
			expect(tokenize('Dvořák in 2023, café Passé')).toEqual(['dvořák', 'in', '2023', 'café', 'passé']);
		});
	});

	describe('stem', () => {
		it('conflates inflections of one word', () => {
			const groups = [
				['hike', 'hikes', 'hiked', 'hiking'],
				['study', 'studies', 'studied'],
				['run', 'runs', 'running'],
				['adopt', 'adopted', 'adopting', 'adopts'],
				['care', 'caring', 'cared'],
				['agree', 'agreed'],
				['box', 'boxes'],
				['meet', 'meeting', 'meetings'],
				['paint', 'painting', 'paintings', 'painted'],
				['retire', 'retired', 'retiring', 'retires'],
				['decide', 'decided', 'deciding'],
				['practice', 'practiced', 'practices'],
			];
			for (const g of groups) expect(new Set(g.map(stem)), g.join(',')).toHaveProperty('size', 1);
		});

		it('maps irregular past tenses and participles to their verb', () => {
			const groups = [
				['break', 'broke', 'broken', 'breaking'],
				['teach', 'taught', 'teaches'],
				['buy', 'bought', 'buying'],
				['steal', 'stole', 'stolen'],
				['go', 'went', 'gone'],
				['make', 'made', 'making'],
			];
			for (const g of groups) expect(new Set(g.map(stem)), g.join(',')).toHaveProperty('size', 1);
			// Forms that are also other words stay themselves: the left hand, a rose, in the fall.
			expect(stem('left')).toBe('left');
			expect(stem('rose')).toBe('rose');
			expect(stem('fell')).not.toBe(stem('fall'));
		});

		it('keeps distinct words apart', () => {
			expect(stem('car')).not.toBe(stem('care'));
			expect(stem('news')).not.toBe(stem('new'));
			expect(stem('feed')).not.toBe(stem('fee'));
		});

		it('leaves short words and words with digits alone', () => {
			expect(stem('bus')).toBe('bus');
			expect(stem('4pm')).toBe('4pm');
			expect(stem('mp3s')).toBe('mp3s');
		});
	});

	describe('processTerm', () => {
		it('drops stop words and stems the rest', () => {
			expect(processTerm('The')).toBeNull();
			expect(processTerm("Daniel's")).toBe('daniel');
			expect(processTerm('Greyhounds')).toBe('greyhound');
		});

		it('keeps negations, which change meaning', () => {
			expect(STOP_WORDS.has('not')).toBe(false);
			expect(STOP_WORDS.has('never')).toBe(false);
		});
	});

	describe('analyze', () => {
		it('gives the same terms for a question and the answer phrased differently', () => {
			const q = new Set(analyze('When did Daniel adopt the greyhounds?'));
			const a = analyze('Daniel adopted a greyhound');
			expect(a.every((t) => q.has(t))).toBe(true);
		});
	});
});
