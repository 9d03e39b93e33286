/** The words the screens use: link sentences, type names, titles and errors by field and rule. */
import { describe, expect, it } from 'vitest';
import { AssociateInputSchema, AUTHORABLE_ASSOCIATION_TYPES, LIMITS, StoreInputSchema, SYSTEM_ASSOCIATION_TYPES } from '../../../src/core/schemas';
import { MemoryError } from '../../../src/core/errors';
import { counted, errorWords, modelFailureWords, linkPhrase, titleOf, typeLabel, valueWords } from '../../../src/ui/words';

describe('words', () => {
	describe('linkPhrase', () => {
		it('reads every link type as a sentence in both directions', () => {
			for (const t of [...AUTHORABLE_ASSOCIATION_TYPES, ...SYSTEM_ASSOCIATION_TYPES]) {
				expect(linkPhrase(t, 'out')).toMatch(/^[a-z ]+$/);
				expect(linkPhrase(t, 'in')).toMatch(/^[a-z ]+$/);
			}
			expect(linkPhrase('INVALIDATED_BY', 'out')).toBe('was replaced by');
			expect(linkPhrase('INVALIDATED_BY', 'in')).toBe('replaced');
			expect(linkPhrase('OCCURRED_BEFORE')).toBe('came before');
		});
	});

	describe('typeLabel', () => {
		it('writes every type in one style', () => {
			expect(typeLabel('episodic')).toBe('Episodic');
			expect(typeLabel('Decision')).toBe('Decision');
		});
	});

	describe('titleOf', () => {
		it('is the summary, else the first line of the content without Markdown', () => {
			expect(titleOf({ content: '**Deploy** on Tuesdays\nmore text' })).toBe('Deploy on Tuesdays');
			expect(titleOf({ summary: 'Billing on Postgres', content: 'x' })).toBe('Billing on Postgres');
			expect(titleOf({ content: 'a'.repeat(100) }, 10)).toBe('aaaaaaaaa…');
		});
	});

	describe('modelFailureWords', () => {
		it('says the hub is out of reach and what to do when the fetch failed or the browser is offline', () => {
			const failed = 'cannot load config.json of model "X/m" from the hub or the browser cache: Failed to fetch';
			const said = 'Could not download X/m: this browser is offline or cannot reach the Hugging Face hub. Try again when online; a/b stays in use.';
			expect(modelFailureWords('X/m', failed, true, 'a/b')).toBe(said);
			expect(modelFailureWords('X/m', 'anything', false, 'a/b')).toBe(said);
		});

		it("keeps any other reason, without the error's code, and says the active model stays", () => {
			expect(modelFailureWords('X/m', 'invalid_input: modelId: unknown model', true, 'a/b')).toBe(
				'Could not switch to X/m: Model: unknown model. a/b stays in use.',
			);
		});
	});

	describe('counted', () => {
		it('says one in the singular and any other count in the plural, with thousands separated', () => {
			expect([0, 1, 2, 2001].map((n) => counted(n, 'memory', 'memories'))).toEqual(['0 memories', '1 memory', '2 memories', '2,001 memories']);
		});
	});

	describe('errorWords', () => {
		it('turns an empty content into "Write something to remember"', () => {
			const r = StoreInputSchema.safeParse({ content: '' });
			expect(r.success).toBe(false);
			expect(errorWords(r.error)).toBe('Write something to remember');
			expect(errorWords(new MemoryError('invalid_input', 'content: Too small: expected string to have >=1 characters'))).toBe(
				'Write something to remember',
			);
		});

		it('names which tag is at fault', () => {
			const r = StoreInputSchema.safeParse({ content: 'x', tags: ['ok', 'y'.repeat(LIMITS.tagChars + 1)] });
			expect(r.success).toBe(false);
			expect(errorWords(r.error)).toBe('Tag 2 is too long (at most 100 characters)');
		});

		it('says what to do with content over the limit', () => {
			const r = StoreInputSchema.safeParse({ content: 'x'.repeat(LIMITS.contentChars + 1) });
			expect(r.success).toBe(false);
			expect(errorWords(r.error)).toBe(
				'Content is too long (at most 50,000 characters): split it into several memories, or save it as a Markdown file and import it',
			);
		});

		it('names the field and the rule without codes or schema jargon', () => {
			expect(errorWords(new MemoryError('not_found', 'memory2_id: no memory with id "x"'))).toBe(
				'The other memory no longer exists (it may have been deleted)',
			);
			const r = AssociateInputSchema.safeParse({ memory1_id: 'a', memory2_id: 'b', strength: 3 });
			expect(errorWords(r.error)).toBe('Strength must be at most 1');
			expect(errorWords(new Error('invalid_input: t_invalid: must be after t_valid'))).toBe('Valid until: must be after t_valid');
		});
	});

	describe('valueWords', () => {
		it('shows values as a person reads them', () => {
			expect(valueWords('tags', ['ops', 'deploy'])).toBe('#ops, #deploy');
			expect(valueWords('importance', 0.9)).toBe('0.90');
			expect(valueWords('t_invalid', undefined)).toBe('—');
			expect(valueWords('type', 'episodic')).toBe('Episodic');
		});
	});
});
