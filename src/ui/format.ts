/** Small display helpers shared by the screens: dates, sizes, numbers, type colours. */
import type { MemoryType } from '../core/schemas';
import { plainText } from './markdown';

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
	['year', 365 * 24 * 3600_000],
	['month', 30 * 24 * 3600_000],
	['week', 7 * 24 * 3600_000],
	['day', 24 * 3600_000],
	['hour', 3600_000],
	['minute', 60_000],
];

/** "3 days ago", "in 2 hours", "now": relative to `now` (ms). */
export function relativeTime(iso: string | undefined, now = Date.now()): string {
	if (!iso) return '—';
	const diff = Date.parse(iso) - now;
	for (const [unit, ms] of UNITS) {
		if (Math.abs(diff) >= ms) return rtf.format(Math.round(diff / ms), unit);
	}
	return 'just now';
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A readable local date and time, e.g. "12 Mar 2025, 14:05". */
export function formatDate(iso: string | undefined): string {
	if (!iso) return '—';
	const t = Date.parse(iso);
	return Number.isFinite(t) ? dateFmt.format(t) : iso;
}

/** ISO string → value for <input type="datetime-local"> (local time, minutes). */
export function toLocalInput(iso: string | undefined): string {
	if (!iso) return '';
	const d = new Date(iso);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** <input type="datetime-local"> value → ISO string, or undefined when empty. */
export function fromLocalInput(value: string): string | undefined {
	if (!value) return undefined;
	const t = Date.parse(value);
	return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

/** 1536 → "1.5 KB". */
export function formatBytes(n: number | undefined): string {
	if (n === undefined || !Number.isFinite(n)) return '—';
	const units = ['B', 'KB', 'MB', 'GB', 'TB'];
	let i = 0;
	while (n >= 1024 && i < units.length - 1) {
		n /= 1024;
		i++;
	}
	return `${n < 10 && i > 0 ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}

/** 12345 → "12,345". */
export function formatCount(n: number): string {
	return n.toLocaleString();
}

/** 0.734 → "0.73". */
export function score(n: number): string {
	return n.toFixed(2);
}

/** One colour per memory type, used by list badges and graph nodes (readable on both themes). */
export const TYPE_COLOURS: Record<MemoryType, string> = {
	Decision: '#6366f1',
	Pattern: '#0ea5e9',
	Preference: '#ec4899',
	Style: '#a855f7',
	Habit: '#f59e0b',
	Insight: '#10b981',
	Context: '#64748b',
	episodic: '#f97316',
	semantic: '#14b8a6',
	procedural: '#84cc16',
	knowledge: '#3b82f6',
};

/** Colour of entity nodes in the graph. */
export const ENTITY_COLOUR = '#94a3b8';

/**
 * Bidi controls that reorder the text around them (embeddings, overrides, isolates): an agent's
 * "x\u202Egpj.exe" tag reads "xexe.jpg". Shown, never obeyed, in everything an agent wrote.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/**
 * Characters a label must not hide: the bidi controls above, the marks and zero-width
 * characters that make two different names look the same (LRM, RLM, ALM, ZWSP, word joiner,
 * invisible operators, BOM, soft hyphen, Mongolian vowel separator), and C0/C1 controls
 * (a newline in a tag or a client name). ZWJ and ZWNJ stay: emoji and Persian need them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN_IN_LABELS = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** "⟨U+202E⟩": the visible stand-in for a hidden or reordering character. */
function codePoint(c: string): string {
	return `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * A name, tag, scope, source, type or client name as it may be shown: every character that
 * would be invisible, break the line or reorder the text is replaced by its code point
 * ("⟨U+202E⟩"), so what the page shows is what was stored.
 */
export function revealHidden(label: string): string {
	return label.replace(HIDDEN_IN_LABELS, codePoint);
}

/**
 * Free text (Markdown content, a summary) as it may be shown: only the bidi controls are made
 * visible; line breaks, tabs and the marks right-to-left writing uses are kept.
 */
export function revealBidi(text: string): string {
	return text.replace(BIDI_CONTROLS, codePoint);
}

/** A label cut to `max` characters (with "…"), hidden characters revealed; `title` holds it whole. */
export function shortLabel(label: string, max = 80): { text: string; title: string } {
	const title = revealHidden(label);
	return { text: title.length > max ? title.slice(0, max - 1) + '…' : title, title };
}

/** A one-line preview of a memory: its summary, else the start of its content (hidden characters revealed). */
export function preview(m: { summary?: string; content: string }, max = 240): string {
	// Lists show text, not Markdown syntax: "**dark mode**" reads as "dark mode".
	const text = revealHidden(m.summary?.trim() || plainText(m.content));
	return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
