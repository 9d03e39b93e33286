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

		it('keeps letters of any script and digits, folding Latin accents away', () => {
			expect(tokenize('Dvořák in 2023, café Passé')).toEqual(['dvorak', 'in', '2023', 'cafe', 'passe']);
			expect(tokenize('Straße Ærø Łódź Ỳên')).toEqual(['strasse', 'aero', 'lodz', 'yen']);
			// Other scripts spell with their marks: Hangul, Cyrillic and Arabic words stay as written.
			expect(tokenize('한국어 Мой кот القهوة')).toEqual(['한국어', 'мой', 'кот', 'القهوة']);
		});

		it('splits Chinese and Japanese runs into characters and overlapping pairs', () => {
			expect(tokenize('我喜欢烤鸭')).toEqual(['我', '我喜', '喜', '喜欢', '欢', '欢烤', '烤', '烤鸭', '鸭']);
			expect(tokenize('寿司を食べた')).toEqual(['寿', '寿司', '司', '司を', 'を', 'を食', '食', '食べ', 'べ', 'べた', 'た']);
			expect(tokenize('iPhone15の値段、猫')).toEqual(['iphone15', 'の', 'の値', '値', '値段', '段', '猫']);
			expect(tokenize('𠮷野家')).toEqual(['𠮷', '𠮷野', '野', '野家', '家']);
		});

		it('makes each emoji a token of its own, dropping its modifiers and joiners', () => {
			expect(tokenize('Deploys happen on Tuesdays🚀')).toEqual(['deploys', 'happen', 'on', 'tuesdays', '🚀']);
			expect(tokenize('I ❤️ it 👍🏽 👩‍💻')).toEqual(['i', '❤', 'it', '👍', '👩', '💻']);
			expect(processTerm('🚀')).toBe('🚀');
		});

		it('splits ASCII text (scanned by hand) exactly as the word pattern does', () => {
			// The pattern tokenize() applies to text with other characters (see its module).
			const byPattern = (text: string) =>
				[...text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)]
					.map((m) => (/['’]/.test(m[0]) ? m[0].replace(/['’]s$/, '').replace(/['’]/g, '') : m[0]))
					.filter((t) => t.length > 0);
			const alphabet = "aZ9 '’-_.s\nQx0";
			let seed = 7;
			const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
			const texts = ["it's2 o'clock", "rock 'n' roll", "a'b' c''d 's ’s x’y’z", "DON'T", 'K\u212Aelvin', 'İstanbul 3pm'];
			for (let i = 0; i < 3000; i++)
				texts.push(Array.from({ length: 1 + Math.floor(rand() * 12) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(''));
			for (const t of texts) expect(tokenize(t), JSON.stringify(t)).toEqual(byPattern(t));
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
