/**
 * Splits text into plain and matched parts for highlighting the terms a search matched, without
 * ever building HTML from memory content (the parts render as text nodes and <mark>s).
 */

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
 * starts, since the lexical index does prefix and stem matching).
 */
export function highlight(text: string, terms: string[]): Part[] {
	const clean = [...new Set(terms.map((t) => t.trim()).filter((t) => t.length > 1))];
	if (clean.length === 0) return [{ text, match: false }];
	clean.sort((a, b) => b.length - a.length);
	const re = new RegExp(`(${clean.map(escapeRegExp).join('|')})`, 'gi');
	const parts: Part[] = [];
	let last = 0;
	for (const m of text.matchAll(re)) {
		const at = m.index ?? 0;
		if (at > last) parts.push({ text: text.slice(last, at), match: false });
		parts.push({ text: m[0], match: true });
		last = at + m[0].length;
	}
	if (last < text.length) parts.push({ text: text.slice(last), match: false });
	return parts;
}
