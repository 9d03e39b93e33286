/**
 * Splits text into plain and matched parts for highlighting the terms a search matched, without
 * ever building HTML from memory content (the parts render as text nodes and <mark>s).
 */
import { foldLatin } from '../core/text';
import { revealHidden } from './format';

/** One run of text, matched or not. */
export interface Part {
	text: string;
	match: boolean;
}

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Marks every occurrence of the terms (case-insensitive; a term also matches longer words it
 * starts, since the lexical index does prefix and stem matching). Hidden and reordering
 * characters an agent put in the text (U+202E, zero-width spaces, line breaks) come back as
 * their code points ("⟨U+202E⟩"), as everywhere else the page shows what agents wrote.
 */
export function highlight(raw: string, terms: string[]): Part[] {
	const text = revealHidden(raw);
	const clean = [...new Set(terms.map((t) => foldLatin(t.trim().toLowerCase())).filter((t) => t.length > 1))];
	if (clean.length === 0) return [{ text, match: false }];
	clean.sort((a, b) => b.length - a.length);
	const re = new RegExp(`(${clean.map(escapeRegExp).join('|')})`, 'gi');
	// Matched on the text with its accents folded, as the index reads it ("cafe" marks "café"),
	// then cut from the text as written.
	const { folded, origin } = foldedText(text);
	const parts: Part[] = [];
	let last = 0;
	for (const m of folded.matchAll(re)) {
		const at = origin[m.index ?? 0];
		const end = m.index + m[0].length < folded.length ? origin[m.index + m[0].length] : text.length;
		if (end <= at || at < last) continue;
		if (at > last) parts.push({ text: text.slice(last, at), match: false });
		parts.push({ text: text.slice(at, end), match: true });
		last = end;
	}
	if (last < text.length) parts.push({ text: text.slice(last), match: false });
	return parts;
}

/** `text` lower-cased with Latin accents folded, and for each of its UTF-16 units the offset in `text` it came from. */
function foldedText(text: string): { folded: string; origin: number[] } {
	let folded = '';
	const origin: number[] = [];
	for (let i = 0; i < text.length; i++) {
		const low = text[i].toLowerCase();
		const f = foldLatin(low.length === 1 ? low : text[i]);
		folded += f;
		for (let k = 0; k < f.length; k++) origin.push(i);
	}
	return { folded, origin };
}
