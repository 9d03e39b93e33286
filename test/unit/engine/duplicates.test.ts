/**
 * The near-duplicate guard's word check (isNearDuplicate): a differing number, single letter,
 * capitalised name or negation is a different fact, whatever the cosine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/core/text';
import {
	contentWords,
	isNearDuplicate,
	NEGATIONS,
	isPossibleUpdate,
	nearDuplicatePacked,
	nearDuplicateWords,
	packedWordCache,
	packedWordsOf,
	packWords,
	PACKED_CACHE_SLOTS,
	PACKED_ENTRY_SLOTS,
	PACKED_VOCABULARY_MAX,
	possibleUpdatePacked,
	possibleUpdateWords,
	sameFact,
	sharpWords,
	wordCache,
	wordsOf,
	type Words,
} from '../../../src/engine/duplicates';

/** Every vector check passes: only the words decide. */
const near = (a: string, b: string) => isNearDuplicate(1, 0.95, a, b);

describe('isNearDuplicate', () => {
	it('keeps "team A" and "team B" apart (a capital letter is a name, not the article)', () => {
		expect(near('Meeting with team A at 3pm', 'Meeting with team B at 3pm')).toBe(false);
		expect(near('Meeting with team a at 3pm', 'Meeting with team b at 3pm')).toBe(false);
		expect(near('Meeting with team B at 3pm', 'Meeting with team at 3pm')).toBe(false);
	});

	it('keeps Chinese sentences naming different places apart, and reads a repeated one as a copy', () => {
		expect(near('我喜欢在北京吃烤鸭', '我喜欢在上海吃烤鸭')).toBe(false);
		expect(near('東京で寿司を食べた', '東京で寿司を食べた。')).toBe(true);
		expect(sharpWords('我喜欢在北京吃烤鸭')).toEqual(new Set());
	});

	it('keeps an added number, letter, name or negation apart', () => {
		expect(near('Lunch with Alice on Friday', 'Lunch with Alice and Bob on Friday')).toBe(false);
		expect(near('Deploy the API', 'Deploy the API v2')).toBe(false);
		expect(near('Use plan x for the launch', 'Use plan for the launch')).toBe(false);
		expect(near('The flag is enabled', 'The flag is not enabled')).toBe(false);
		expect(near('The flag is never enabled', 'The flag is not enabled')).toBe(false);
	});

	it('keeps "team A" apart from "a team" (the article is no name)', () => {
		expect(near('Meeting with team A at noon', 'Meeting with a team at noon')).toBe(false);
		expect(near('Noted A meeting a', 'Noted meeting a')).toBe(false);
	});

	it('never folds two memories where one word, however small, is swapped for another', () => {
		expect(near('Alice moved to Berlin last year.', 'Alice moved from Berlin last year.')).toBe(false);
		expect(near('He prefers the window seat.', 'She prefers the window seat.')).toBe(false);
		expect(near('The cat sleeps on the sofa.', 'The cat sleeps under the sofa.')).toBe(false);
		expect(near('You must restart the server', 'You may restart the server')).toBe(false);
		expect(near('Tea with milk', 'Tea without milk')).toBe(false);
		expect(near('Alice is the manager', 'Alice was the manager')).toBe(false);
		expect(near('Bring tea and cake', 'Bring tea or cake')).toBe(false);
		// Articles are the exception: "a meeting" and "the meeting" are one memory.
		expect(near('A meeting with the team', 'The meeting with the team')).toBe(true);
	});

	it('folds a new text that only drops words of the stored one, or changes case, punctuation or articles', () => {
		expect(near('Tests must pass before a pull request can be merged', 'All tests must pass before a pull request can be merged')).toBe(true);
		expect(near('We decided to use PostgreSQL for billing', 'we decided to use postgresql for billing.')).toBe(true);
		expect(near('Meeting with the team', 'A meeting with the team')).toBe(true);
		expect(near('A meeting with the team', 'Meeting with the team')).toBe(true);
		expect(near('The build is slow', 'I think the build is slow')).toBe(true);
	});

	it('keeps a new text that adds a word: folding it would lose the detail', () => {
		expect(near('Alice likes green tea.', 'Alice likes tea.')).toBe(false);
		expect(near('Push images to the private registry', 'Push images to the registry')).toBe(false);
		expect(near('All tests must pass before a pull request can be merged', 'Tests must pass before a pull request can be merged')).toBe(false);
		// The other way round loses nothing: the stored text says it all.
		expect(near('Alice likes tea.', 'Alice likes green tea.')).toBe(true);
	});

	it('keeps a new text that drops a bound or approximation of a number or kind', () => {
		const dropped = [
			['Standup is every Monday', 'Standup is every other Monday'],
			['The limit is 10 requests', 'The limit is at most 10 requests'],
			['You need 5 years of experience', 'You need at least 5 years of experience'],
			['Upload 10 files', 'Upload up to 10 files'],
			['It costs 50 dollars', 'It costs more than 50 dollars'],
			['Children 12 ride free', 'Children under 12 ride free'],
			['Visitors 65 get a discount', 'Visitors over 65 get a discount'],
			['The trip takes 3 hours', 'The trip takes about 3 hours'],
			['Bob is German', 'Bob is half German'],
		];
		for (const [incoming, stored] of dropped) expect(near(incoming, stored), `${incoming} <- ${stored}`).toBe(false);
		// An adjective dropped still loses nothing.
		expect(near('Alice is an engineer', 'Alice is a senior engineer')).toBe(true);
	});

	it('keeps a new text that drops "non", "anti", "stop", "avoid" or another language\'s "not" or "never"', () => {
		const dropped = [
			['The ticket is refundable', 'The ticket is non-refundable'],
			['The drug is inflammatory', 'The drug is anti-inflammatory'],
			['using the old API', 'Stop using the old API'],
			['deploying on Fridays', 'Avoid deploying on Fridays'],
			['Mi piace il caffè', 'Non mi piace il caffè'],
			['Eu gosto de café', 'Eu não gosto de café'],
			['Ik drink koffie', 'Ik drink geen koffie'],
			['Hij woont in Gent', 'Hij woont niet in Gent'],
			['Jag dricker kaffe', 'Jag dricker inte kaffe'],
			['Ich trinke Kaffee', 'Ich trinke keinen Kaffee'],
			['Je mange de la viande', 'Je ne mange pas de la viande'],
			['Bebo café', 'Nunca bebo café'],
			['Он любит кофе', 'Он не любит кофе'],
		];
		for (const [incoming, stored] of dropped) expect(near(incoming, stored), `${incoming} <- ${stored}`).toBe(false);
	});

	it('keeps a new text that drops a hedge, a modal, what used to be or was only tried: it says another thing', () => {
		expect(near('Bob won the race', 'Bob almost won the race')).toBe(false);
		expect(near('The server was in Frankfurt', 'The server was previously in Frankfurt')).toBe(false);
		expect(near('Alice quit smoking', 'Alice tried to quit smoking')).toBe(false);
		expect(near('Dan is an employee', 'Dan is a former employee')).toBe(false);
		expect(near('Admins can delete projects', 'Only admins can delete projects')).toBe(false);
		expect(near('Tests run in parallel', 'Tests must run in parallel')).toBe(false);
		expect(near('Gina works from home', 'Gina usually works from home')).toBe(false);
		// Dropping another word still folds; and a text keeping the hedge folds as before.
		expect(near('Bob almost won the race', 'Bob almost won the race this morning')).toBe(true);
		expect(near('Alice likes tea.', 'Alice likes green tea.')).toBe(true);
	});

	it('never folds two memories differing in one number, letter, name or negation (property)', () => {
		const words = fc.constantFrom(
			'meeting',
			'with',
			'team',
			'the',
			'report',
			'is',
			'due',
			'on',
			'budget',
			'review',
			'room',
			'at',
			'for',
			'a',
			'we',
			'moved',
			'call',
		);
		const sentence = fc.array(words, { minLength: 2, maxLength: 10 });
		const sharp = fc.oneof(
			fc.integer({ min: 0, max: 100000 }).map(String),
			fc.constantFrom(...'bcdefghjklmnopqrstuvwxyzABCDEFGHJKLMNOPQRSTUVWXYZ'.split('')),
			fc.constantFrom('Alice', 'Bob', 'Berlin', 'Postgres', 'Kenji', 'Oaxaca'),
			fc.constantFrom('not', 'never', 'no', "don't", "isn't", 'without'),
		);
		fc.assert(
			fc.property(sentence, fc.nat(), sharp, sharp, fc.boolean(), (ws, at, x, y, replace) => {
				const i = at % (ws.length + 1);
				// The token goes mid-sentence: a capitalised word that starts a sentence may be no name.
				const a = ['Noted', ...ws.slice(0, i), x, ...ws.slice(i)].join(' ');
				const b = replace ? ['Noted', ...ws.slice(0, i), y, ...ws.slice(i)].join(' ') : ['Noted', ...ws].join(' ');
				fc.pre(!replace || x.toLowerCase() !== y.toLowerCase());
				return !near(a, b) && !near(b, a);
			}),
			{ numRuns: 500 },
		);
	});
});

describe('sameFact', () => {
	it('keeps apart numbers written alike, words in another order, a code in another case and code indented otherwise', () => {
		const apart = [
			['Server IP is 10.0.0.1', 'Server IP is 10.0.1.0'],
			['Running version 1.1.0', 'Running version 1.0.1'],
			['Version 2.2', 'Version 2.2.2'],
			['Due on 1/1/11', 'Due on 1/11/11'],
			['Call at 10:10', 'Call at 10:10:10'],
			['Cost is 1,000', 'Cost is 1.000'],
			['version 10.0.0.10', 'version 10.10.0.0'],
			['The area is 10\u00b2 m', 'The area is 102 m'],
			['x\u00b2', 'x2'],
			['Height is 6\u2032', 'Height is 6'],
			['the dog bit the man', 'the man bit the dog'],
			['convert celsius to fahrenheit', 'convert fahrenheit to celsius'],
			['copy the data from staging to prod', 'copy the data from prod to staging'],
			['It is done.', 'Is it done?'],
			['The key is AbC123', 'The key is abc123'],
			['if a:\n    b\nc', 'if a:\n    b\n    c'],
		];
		for (const [a, b] of apart) {
			expect(sameFact(a, b), `${a} | ${b}`).toBe(false);
			expect(sameFact(b, a), `${b} | ${a}`).toBe(false);
		}
	});

	it('keeps a hyphenated compound apart from its parts', () => {
		for (const [a, b] of [
			["Alice is Bob's mother-in-law", "Alice is Bob's mother"],
			["Alice is Bob's step-mother", "Alice is Bob's mother"],
			['The API is read-only', 'The API is read'],
			['Alice is a non-smoker', 'Alice is a smoker'],
		]) {
			expect(sameFact(a, b), `${a} | ${b}`).toBe(false);
			expect(sameFact(b, a), `${b} | ${a}`).toBe(false);
		}
		expect(sameFact('Use UTF-8 everywhere', 'use utf-8 everywhere')).toBe(true);
	});

	it('keeps a question apart from the statement', () => {
		expect(sameFact('The server is down', 'The server is down?')).toBe(false);
		expect(sameFact('¿Está abierto?', 'Está abierto')).toBe(false);
	});

	it('still folds case, punctuation, whitespace, articles and dropped words', () => {
		const same = [
			['We decided to use PostgreSQL for the billing service', 'we decided to use postgresql for the billing service.'],
			['Invoices are due in 30 days', 'Invoices are due in 30 days.'],
			['The release is v2.1', 'the release is v2.1.'],
			['Heidi writes the changelog', 'HEIDI WRITES THE CHANGELOG'],
			['Use tabs for indentation', 'Use  tabs\tfor indentation.'],
			['The meeting is with the team', 'The meeting is with a team'],
			['Alice likes green tea', 'Alice likes tea'],
			['Use \uff46\uff55\uff4c\uff4c width 1', 'Use full width 1'],
			['The build uses Vite\n', 'The build uses Vite'],
			['Step one:\n  run make\n  run test', 'step one:\n  run make\n  run test.'],
		];
		for (const [a, b] of same) expect(sameFact(a, b), `${a} | ${b}`).toBe(true);
	});
});

describe('isPossibleUpdate', () => {
	const may = (a: string, b: string) => isPossibleUpdate(0.9, 0.6, a, b);

	it('flags one subject with another number, name or negation', () => {
		expect(may('Deploys happen on Tuesday', 'Deploys happen on Thursday')).toBe(true);
		expect(may('The rate limit is 100 requests', 'The rate limit is 1000 requests')).toBe(true);
		expect(may('The beta flag is enabled', 'The beta flag is not enabled')).toBe(true);
		expect(may('Felix drives an old Volvo', 'Felix now drives a little Fiat')).toBe(true);
	});

	it('leaves alone rewordings, other subjects and weak likeness', () => {
		expect(may('Deploys happen on Tuesday. ' + 'x'.repeat(2000), 'Deploys happen on Thursday')).toBe(false);
		expect(may('Deploys happen on Tuesday', 'deploys happen on tuesday')).toBe(false);
		expect(may('Deploys happen on Tuesday', 'Lunch with Alice on Thursday')).toBe(false);
		expect(isPossibleUpdate(0.5, 0.6, 'Deploys happen on Tuesday', 'Deploys happen on Thursday')).toBe(false);
	});
});

describe('word sets worked out once (wordsOf, wordCache)', () => {
	/** sharpWords as it was before its ASCII fast path: the tokenizer on every word. */
	function sharpReference(text: string): Set<string> {
		const out = new Set<string>();
		let end = 0;
		for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)) {
			const raw = m[0];
			const start = end === 0 || /[.!?:;\n]/u.test(text.slice(end, m.index));
			end = m.index + raw.length;
			const [w] = tokenize(raw);
			if (w === undefined) continue;
			const capital = raw[0] !== raw[0].toLowerCase();
			if (/\p{N}/u.test(w) || NEGATIONS.has(w) || (w.length === 1 && w !== 'a' && w !== 'i') || (capital && !start && !/^I(?:['’]\p{L}+)?$/u.test(raw)))
				out.add(w);
		}
		return out;
	}
	const words = fc.array(
		fc.constantFrom(
			'Alice',
			'alice',
			'A',
			'a',
			'I',
			"I'm",
			'İstanbul',
			'Ünïcode',
			'v2',
			'3pm',
			'not',
			'never',
			'Don’t',
			"Bob's",
			'team',
			'only',
			'Almost',
			'.',
			',',
			':',
			'\n',
			'ß',
			'ǅ',
		),
		{ maxLength: 12 },
	);

	it('sharpWords gives what the tokenizer on every word gave', () => {
		fc.assert(
			fc.property(words, (ws) => {
				const text = ws.join(' ');
				expect([...sharpWords(text)]).toEqual([...sharpReference(text)]);
			}),
		);
	});

	it("wordsOf gives the tokenizer's tokens, sharpWords and the content words, for plain ASCII text and other", () => {
		fc.assert(
			fc.property(words, (ws) => {
				const text = ws.join(' ');
				const w = wordsOf(text);
				const tokens = tokenize(text);
				expect([...w.tokens]).toEqual([...new Set(tokens)]);
				expect([...w.sharp]).toEqual([...sharpReference(text)]);
				expect([...w.content]).toEqual([...new Set(tokens.filter((t) => contentWords(text).has(t)))]);
			}),
		);
	});

	it("possibleUpdateWords answers as the overlap of the two texts' other content words did", () => {
		/** The check as it was, building the word lists it compares. */
		function reference(a: Words, b: Words): boolean {
			const [sa, sb] = [a.sharp, b.sharp];
			const loses = (sharp: Set<string>, ws: Set<string>, other: Set<string>) => [...sharp].some((w) => (w.length === 1 ? !other.has(w) : !ws.has(w)));
			if (!loses(sa, b.tokens, sb) && !loses(sb, a.tokens, sa)) return false;
			const wa = [...a.content].filter((w) => !sa.has(w) && !sb.has(w));
			const wb = new Set([...b.content].filter((w) => !sa.has(w) && !sb.has(w)));
			const [short, long] = wa.length <= wb.size ? [wa, wb] : [[...wb], new Set(wa)];
			return short.length > 0 && short.filter((w) => long.has(w)).length >= 0.5 * short.length;
		}
		fc.assert(
			fc.property(words, words, (a, b) => {
				const [wa, wb] = [wordsOf(a.join(' ')), wordsOf(b.join(' '))];
				expect(possibleUpdateWords(0.95, 0.9, wa, wb)).toBe(reference(wa, wb));
			}),
			{ numRuns: 500 },
		);
	});

	it('the checks on word sets answer as the checks on texts', () => {
		const cache = wordCache();
		fc.assert(
			fc.property(words, words, fc.double({ min: 0.8, max: 1, noNaN: true }), (a, b, cos) => {
				const [ta, tb] = [a.join(' '), b.join(' ')];
				expect(nearDuplicateWords(cos, 0.9, cache(ta), cache(tb))).toBe(isNearDuplicate(cos, 0.9, ta, tb));
				expect(possibleUpdateWords(cos, 0.9, wordsOf(ta), cache(tb))).toBe(isPossibleUpdate(cos, 0.9, ta, tb));
			}),
		);
	});

	it('the checks on packed word sets answer as the checks on word sets, both ways round', () => {
		const packedOf = packedWordCache();
		fc.assert(
			fc.property(words, words, fc.double({ min: 0.8, max: 1, noNaN: true }), (a, b, cos) => {
				const [ta, tb] = [a.join(' '), b.join(' ')];
				const [wa, wb, pa, pb] = [wordsOf(ta), wordsOf(tb), packedOf(ta), packedOf(tb)];
				expect([nearDuplicatePacked(cos, 0.9, pa, pb), nearDuplicatePacked(cos, 0.9, pb, pa)]).toEqual([
					nearDuplicateWords(cos, 0.9, wa, wb),
					nearDuplicateWords(cos, 0.9, wb, wa),
				]);
				expect([possibleUpdatePacked(cos, 0.9, pa, pb), possibleUpdatePacked(cos, 0.9, pb, pa)]).toEqual([
					possibleUpdateWords(cos, 0.9, wa, wb),
					possibleUpdateWords(cos, 0.9, wb, wa),
				]);
			}),
			{ numRuns: 2_000 },
		);
	});

	it("packedWordsOf's one pass packs what packWords(wordsOf) packs, on plain text and any other", () => {
		// Plain ASCII with the punctuation that starts sentences, apostrophes (straight and curly),
		// digits and capitals; and, now and then, a character that takes wordsOf's other path.
		const char = fc.constantFrom(..."aAbBiIxXzZ019 .!?:;,\n'’-_#@é".split(''));
		fc.assert(
			fc.property(fc.array(char, { maxLength: 80 }), (chars) => {
				const text = chars.join('');
				// Interned by the one pass first, so packWords numbers every word the same.
				const one = packedWordsOf(text);
				expect([...one]).toEqual([...packWords(wordsOf(text))]);
			}),
			{ numRuns: 3_000 },
		);
		for (const text of ["Deploys happen on Tuesday; I'm sure it's v2 at 3pm. NOT Bob's", 'Lunch with Alice and Bob', "team A isn't here: ask Will", ''])
			expect([...packedWordsOf(text)]).toEqual([...packWords(wordsOf(text))]);
	});

	it('packed checks answer as the Set ones on sentences (a long text past UPDATE_MAX_CHARS too)', () => {
		const packedOf = packedWordCache();
		const texts = [
			'Deploys happen on Tuesday',
			'Deploys happen on Thursday',
			'The rate limit is 100 requests per minute',
			'The rate limit is 1000 requests per minute',
			'Feature flag X is enabled',
			'Feature flag X is not enabled',
			'Meeting with team A at 3pm',
			'Meeting with team B at 3pm',
			'Lunch with Alice and Bob',
			'Lunch with Alice',
			'Bob almost won the race',
			'Bob won the race',
			'I moved to İstanbul in 2019; it’s lovely.',
			'word '.repeat(500),
			'word '.repeat(500) + 'extra 7',
		];
		for (const a of texts)
			for (const b of texts) {
				expect(nearDuplicatePacked(0.97, 0.95, packedOf(a), packedOf(b))).toBe(isNearDuplicate(0.97, 0.95, a, b));
				expect(possibleUpdatePacked(0.9, 0.6, packedOf(a), packedOf(b))).toBe(isPossibleUpdate(0.9, 0.6, a, b));
			}
	});

	it('remembers packed word sets by their size: the oldest go once the budget is spent', () => {
		const packedOf = packedWordCache();
		const first = packedOf('the oldest text 1');
		expect(packedOf('the oldest text 1')).toBe(first);
		// Each later text takes 2 + 1 sharp word + 3 tokens slots, plus its entry.
		const per = 2 + 1 + 3 + PACKED_ENTRY_SLOTS;
		for (let i = 0; i < PACKED_CACHE_SLOTS / per + 1; i++) packedOf(`later text ${i + 2}`);
		expect(packedOf('the oldest text 1')).not.toBe(first);
		expect(packedOf('the oldest text 1')).toEqual(first);
	});

	it('starts its vocabulary over between stores once it is full, and answers the same after', () => {
		const before = packedWordCache();
		const a = 'Deploys happen on Tuesday at 3pm';
		const b = 'Deploys happen on Thursday at 3pm';
		const packedA = before(a);
		// Texts of new words until the vocabulary is full (a store's words all stay numbered alike meanwhile).
		for (let i = 0; i * 200 < PACKED_VOCABULARY_MAX; i++) before(Array.from({ length: 200 }, (_, j) => `w${i * 200 + j}`).join(' '));
		expect(possibleUpdatePacked(0.9, 0.6, packedA, before(b))).toBe(true);
		const after = packedWordCache();
		expect(after(a)).not.toBe(packedA);
		expect([possibleUpdatePacked(0.9, 0.6, after(a), after(b)), nearDuplicatePacked(0.99, 0.95, after(a), after(b))]).toEqual([
			isPossibleUpdate(0.9, 0.6, a, b),
			isNearDuplicate(0.99, 0.95, a, b),
		]);
	});
});
