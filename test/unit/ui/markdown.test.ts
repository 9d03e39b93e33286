/**
 * ui/markdown: every input renders in linear time. Each adversarial input below took seconds to
 * minutes (or overflowed the stack) before; each must now finish well inside the budget, which
 * is generous so a busy machine cannot make it flake. DOMPurify needs a DOM, so sanitising is
 * covered in the browser (test/e2e/app-csp.test.ts); here marked's part and the previews.
 */
import { describe, expect, it } from 'vitest';
import { linkDisguise, MARKDOWN_LIMITS, markdownRefusal, markdownToHtml, plainText } from '../../../src/ui/markdown';

const N = 250_000;
const BUDGET_MS = 2_000;

const ADVERSARIAL: Record<string, string> = {
	'entities line with 250k code spans': '- **entities:** ' + '`a`'.repeat(N),
	'250k backticks': '`'.repeat(N),
	'250k stars': '*'.repeat(N),
	'250k underscores': '_'.repeat(N),
	'250k open brackets': '['.repeat(N),
	'250k image openers': '!['.repeat(N),
	'link openers': '[a]('.repeat(N / 4),
	'spaced underscores': ' _a'.repeat(N / 3),
	'bold openers': '**a'.repeat(N / 3),
	'a line of spaces': 'a' + ' '.repeat(N) + 'a',
	'spaces with no pipe': ' '.repeat(N) + 'x',
	'250k angle brackets': '<'.repeat(N),
	'blockquote 250k deep': '>'.repeat(N),
	'list 100k deep': '- '.repeat(N / 2) + 'a',
	'ever deeper indented lists': Array.from({ length: 2_000 }, (_, i) => ' '.repeat(i * 2) + '- a').join('\n'),
	'many short lines': 'a\n'.repeat(N / 2),
};

function timed(f: () => unknown): number {
	const t = performance.now();
	f();
	return performance.now() - t;
}

describe('ui/markdown', () => {
	describe('plainText', () => {
		for (const [name, input] of Object.entries(ADVERSARIAL))
			it(`finishes in time: ${name}`, () => {
				expect(timed(() => plainText(input))).toBeLessThan(BUDGET_MS);
			});
	});

	describe('markdownToHtml', () => {
		for (const [name, input] of Object.entries(ADVERSARIAL))
			it(`finishes in time: ${name}`, () => {
				expect(timed(() => markdownToHtml(input))).toBeLessThan(BUDGET_MS);
			});

		it('formats ordinary Markdown', () => {
			expect(markdownToHtml('# Title\n- **bold** and `code`')).toBe(
				'<h1>Title</h1>\n<ul>\n<li><strong>bold</strong> and <code>code</code></li>\n</ul>\n',
			);
		});

		it('shows text over the limits as escaped plain text, saying why', () => {
			const html = markdownToHtml('<b>x</b>' + ' '.repeat(MARKDOWN_LIMITS.lineChars));
			expect(html).toMatch(
				/^<p class="plain-note">Shown as plain text: a line is longer than 2,000 characters to format safely.<\/p><p class="plain-text">&lt;b&gt;x&lt;\/b&gt; +<\/p>$/,
			);
		});
	});

	describe('markdownRefusal', () => {
		it('accepts ordinary nesting and refuses deep nesting, long lines and long texts', () => {
			expect(markdownRefusal('> quote\n- a\n  - b\n    1. c')).toBeUndefined();
			expect(markdownRefusal('> '.repeat(11) + 'x')).toBe('nested too deeply');
			expect(markdownRefusal(' '.repeat(101) + '- x')).toBe('nested too deeply');
			expect(markdownRefusal('a'.repeat(2_001))).toBe('a line is longer than 2,000 characters');
			expect(markdownRefusal('a\n'.repeat(10_001))).toBe('longer than 20,000 characters');
		});
	});

	describe('linkDisguise', () => {
		it('names the real host when the text reads as another address or domain', () => {
			expect(linkDisguise('https://bank.com', 'https://evil.example')).toBe('evil.example');
			expect(linkDisguise('bank.com/login', 'https://evil.example/x')).toBe('evil.example');
			expect(linkDisguise('www.bank.com', 'https://bank.com.evil.example/')).toBe('bank.com.evil.example');
			expect(linkDisguise('bank.com', 'mailto:help@evil.example')).toBe('mailto:help@evil.example');
		});

		it('names the host of a target with a user name or a punycode (look-alike) label, whatever the text', () => {
			expect(linkDisguise('https://bank.com@evil.example', 'https://bank.com@evil.example')).toBe('evil.example');
			expect(linkDisguise('my bank', 'https://xn--bnk-8cd.com/')).toBe('xn--bnk-8cd.com');
		});

		it('stays quiet when the text tells the truth or names no address', () => {
			expect(linkDisguise('https://example.com/a', 'https://example.com/a')).toBeUndefined();
			expect(linkDisguise('example.com', 'https://www.example.com/docs')).toBeUndefined();
			expect(linkDisguise('click here', 'https://evil.example')).toBeUndefined();
			expect(linkDisguise('e.g.', 'https://example.com')).toBeUndefined();
			expect(linkDisguise('version 1.2', 'https://example.com')).toBeUndefined();
		});
	});
});
