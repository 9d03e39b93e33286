/**
 * Text helpers of the list views: highlighting matched terms without building HTML, and one-line
 * plain-text previews of Markdown content.
 */
import { describe, expect, it } from 'vitest';
import { highlight } from '../../../src/ui/highlight';
import { plainText } from '../../../src/ui/markdown';

describe('ui/highlight', () => {
	it('marks every occurrence of a term, case-insensitively', () => {
		expect(highlight('Invoices and invoice totals', ['invoice'])).toEqual([
			{ text: 'Invoice', match: true },
			{ text: 's and ', match: false },
			{ text: 'invoice', match: true },
			{ text: ' totals', match: false },
		]);
	});

	it('marks a word written with accents when the term has none, keeping the text as written', () => {
		expect(highlight('Le Café près de la Straße', ['cafe', 'strasse'])).toEqual([
			{ text: 'Le ', match: false },
			{ text: 'Café', match: true },
			{ text: ' près de la ', match: false },
			{ text: 'Straße', match: true },
		]);
		expect(highlight('東京で寿司を食べた', ['寿司'])).toEqual([
			{ text: '東京で', match: false },
			{ text: '寿司', match: true },
			{ text: 'を食べた', match: false },
		]);
	});

	it('prefers the longer of overlapping terms', () => {
		expect(highlight('database', ['data', 'database'])).toEqual([{ text: 'database', match: true }]);
	});

	it('treats regular-expression characters in terms as text', () => {
		expect(highlight('a (b) c', ['(b)'])).toEqual([
			{ text: 'a ', match: false },
			{ text: '(b)', match: true },
			{ text: ' c', match: false },
		]);
	});

	it('returns the text whole when there is nothing to mark', () => {
		expect(highlight('<img onerror=x>', [])).toEqual([{ text: '<img onerror=x>', match: false }]);
	});
});

describe('ui/markdown plainText', () => {
	it('removes Markdown syntax but keeps words, hyphens and snake_case', () => {
		expect(plainText('# Title\n- **bold** and *soft* `code`, stand-up at 10:00, snake_case_name')).toBe(
			'Title bold and soft code, stand-up at 10:00, snake_case_name',
		);
	});

	it('keeps the text of links and images, not their addresses', () => {
		expect(plainText('See [the docs](https://x.example) and ![a chart](c.png)')).toBe('See the docs and a chart');
	});
});
