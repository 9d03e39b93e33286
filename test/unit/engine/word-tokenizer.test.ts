import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID } from '../../../src/engine/embedder';
import { nodeModelPath } from '../../../src/engine/node-model-path';
import { specBuffers, tokenizerOf, wordLevelSpec, wordLevelTokenizer, type WordTokenizer } from '../../../src/engine/word-tokenizer';
import { Corpus, prng } from '../../../bench/lib/corpus';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const modelDir = () => join(nodeModelPath(), DEFAULT_MODEL_ID);
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(modelDir(), file), 'utf8'));

/** Every text of the dev set: turns, questions and answers. */
function devTexts(): string[] {
	const d = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'locomo-style', 'dev.json'), 'utf8')) as {
		conversations: { sessions: { turns: { text: string }[] }[] }[];
		questions: { question: string; answer: string }[];
	};
	return [
		...d.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map((t) => t.text))),
		...d.questions.flatMap((q) => [q.question, String(q.answer)]),
	];
}

/** Pieces that stress each step: added tokens, the n't rule, case, Unicode punctuation and spaces, composition. */
const PIECES = [
	'[UNK]',
	'[PAD]',
	'[unk]',
	'[UN',
	'K]',
	'[PAD][UNK]',
	"don't",
	"DON'T",
	'can’t',
	'won\u2019T',
	"n't",
	'N’T',
	'isn t',
	'İstanbul',
	'STRASSE',
	'straße',
	'ΟΔΟΣ',
	'Σ',
	'ﬁne',
	'Café',
	'Cafe\u0301',
	'e\u0301',
	'\u212b',
	'Ω',
	'hello',
	'world',
	'the',
	'Billing',
	'DB-42',
	'v2.3.1',
	'e-mail',
	'foo_bar',
	'a/b',
	'3.14',
	'1,000',
	'$5',
	'#tag',
	'@name',
	'¿qué?',
	'¡sí!',
	'«quote»',
	'“curly”',
	'—',
	'–',
	'…',
	'·',
	'§',
	'†',
	'™',
	'©',
	'°C',
	'½',
	'²',
	'日本語',
	'中文字',
	'한국어',
	'русский',
	'العربية',
	'עברית',
	'हिन्दी',
	'😀',
	'👍🏽',
	'👨‍👩‍👧',
	'🇫🇷',
	' ',
	'  ',
	'\t',
	'\n',
	'\u00a0',
	'\u2003',
	'\u3000',
	'\u200b',
	'\ufeff',
	'\u2028',
	'\r\n',
	'',
];

/** Random strings built from PIECES, joined by nothing, a space or punctuation. */
function soup(n: number): string[] {
	const rnd = prng(11);
	const joins = ['', ' ', ' ', '-', '.', "'", '\u00a0'];
	return Array.from({ length: n }, () => {
		const k = 1 + Math.floor(rnd() * 8);
		let s = '';
		for (let i = 0; i < k; i++) s += PIECES[Math.floor(rnd() * PIECES.length)] + joins[Math.floor(rnd() * joins.length)];
		return s;
	});
}

describe('the embedded model', () => {
	let fast: WordTokenizer;
	let reference: PreTrainedTokenizer;

	beforeAll(async () => {
		// `npm test` builds the model first; this covers a bare `npx vitest run`.
		if (!existsSync(join(modelDir(), 'tokenizer.json'))) {
			const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-model.mjs')], { cwd: ROOT, stdio: 'inherit' });
			if (r.status !== 0) throw new Error('could not build the embedded model');
		}
		const t = wordLevelTokenizer(readJson('tokenizer.json'), readJson('tokenizer_config.json'));
		if (!t) throw new Error('the embedded model must take the fast path');
		fast = t;
		env.localModelPath = nodeModelPath();
		env.allowRemoteModels = false;
		reference = await AutoTokenizer.from_pretrained(DEFAULT_MODEL_ID);
	}, 60_000);

	it('has the vocabulary size transformers.js reports', () => {
		expect(fast.vocabSize).toBe(reference._tokenizer.model!.vocab.length);
	});

	it('gives the same ids as transformers.js on the dev set, the bench corpus and adversarial text', () => {
		const corpus = new Corpus(3);
		const texts = [...devTexts(), ...Array.from({ length: 2000 }, (_, i) => corpus.memory(i).content), ...PIECES, ...soup(5000)];
		const differ = texts.filter((t) => JSON.stringify(fast.encode(t)) !== JSON.stringify(reference.encode(t)));
		expect(differ).toEqual([]);
		// The comparison means something only if the texts reach every branch.
		const ids = texts.flatMap((t) => fast.encode(t));
		expect(ids).toContain(0); // unknown words and the literal [UNK]
		expect(ids).toContain(1); // the literal [PAD]
		expect(fast.encode("I don't")).toEqual(reference.encode('i do not'));
	});
});

describe('a word-level spec sent to another thread', () => {
	it('tokenises exactly as the tokenizer made in place', () => {
		const spec = () => wordLevelSpec(readJson('tokenizer.json'), readJson('tokenizer_config.json'))!;
		const here = tokenizerOf(spec());
		const sent = spec();
		const there = tokenizerOf(structuredClone(sent, { transfer: specBuffers(sent) }));
		// The sender's copy is gone: the buffers moved.
		expect(sent.vocab.slots.length).toBe(0);
		const corpus = new Corpus(5);
		const texts = [...PIECES, ...soup(2000), ...Array.from({ length: 500 }, (_, i) => corpus.memory(i).content)];
		expect(texts.filter((t) => JSON.stringify(here.encode(t)) !== JSON.stringify(there.encode(t)))).toEqual([]);
		expect(there.vocabSize).toBe(here.vocabSize);
	});
});

describe('wordLevelTokenizer on other configurations', () => {
	const base = {
		version: '1.0',
		truncation: null,
		padding: null,
		added_tokens: [
			{ id: 0, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
			{ id: 5, content: '<sep><x>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
			{ id: 6, content: '<sep>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
		],
		normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKD' }, { type: 'Replace', pattern: { String: '.' }, content: '$&!' }] },
		pre_tokenizer: { type: 'BertPreTokenizer' },
		post_processor: null,
		decoder: null,
		model: { type: 'WordLevel', vocab: { '<unk>': 0, a: 1, b: 2, '!': 3, ﬁ: 4, fi: 7, $: 8, '&': 9 }, unk_token: '<unk>' },
	};
	const config = { unk_token: '<unk>' };

	it('matches the tokenizers package for added tokens (longest first) and a Replace with $ in its content', () => {
		const fast = wordLevelTokenizer(base, config)!;
		const ref = new Tokenizer(base as never, config as never);
		for (const t of ['a<sep>b', 'a<sep><x>b', '<sep<sep>>', 'ﬁ a.b', '<unk>a c', 'A B', ' <sep> ', 'a.b.'])
			expect(fast.encode(t), t).toEqual(ref.encode(t).ids);
		expect(fast.encode('a<sep><x>b')).toEqual([1, 5, 2]);
	});

	it('declines what it does not reproduce, so the caller falls back to transformers.js', () => {
		const variants: [string, unknown, unknown][] = [
			['a BPE model', { ...base, model: { ...base.model, type: 'BPE' } }, config],
			['a Regex replace', { ...base, normalizer: { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' } }, config],
			['a Strip normalizer', { ...base, normalizer: { type: 'Strip' } }, config],
			['another pre-tokenizer', { ...base, pre_tokenizer: { type: 'Whitespace' } }, config],
			['a post-processor', { ...base, post_processor: { type: 'BertProcessing' } }, config],
			['an added token matched after normalising', { ...base, added_tokens: [{ ...base.added_tokens[0], normalized: true }] }, config],
			['an added token that strips spaces', { ...base, added_tokens: [{ ...base.added_tokens[0], lstrip: true }] }, config],
			['no unk token in the config', base, {}],
			['remove_space', base, { ...config, remove_space: true }],
			['not an object', 'tokenizer', config],
		];
		for (const [why, tokenizer, cfg] of variants) expect(wordLevelTokenizer(tokenizer, cfg), why).toBeNull();
	});
});
