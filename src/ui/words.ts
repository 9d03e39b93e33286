/**
 * The words a person reads: link types as sentences, memory types in one style, memory titles,
 * field names, and engine or schema errors turned into plain sentences by field and rule. The
 * engine and the tools keep their exact, field-naming messages (agents read those); the screens
 * go through here instead of showing `RELATES_TO` or "Too small: expected string…".
 */
import { counted as countedIn } from '../core/counts';
import type { AssociationType, MemoryType } from '../core/schemas';
import { revealHidden } from './format';
import { plainText } from './markdown';

/** Each link type as the verb phrase of "A … B" (`out`) and of "B … A" (`in`). */
export const LINK_PHRASES: Record<AssociationType, { out: string; in: string }> = {
	RELATES_TO: { out: 'relates to', in: 'relates to' },
	LEADS_TO: { out: 'leads to', in: 'follows from' },
	OCCURRED_BEFORE: { out: 'came before', in: 'came after' },
	PREFERS_OVER: { out: 'is preferred over', in: 'is less preferred than' },
	EXEMPLIFIES: { out: 'is an example of', in: 'is illustrated by' },
	CONTRADICTS: { out: 'contradicts', in: 'is contradicted by' },
	REINFORCES: { out: 'supports', in: 'is supported by' },
	INVALIDATED_BY: { out: 'was replaced by', in: 'replaced' },
	EVOLVED_INTO: { out: 'evolved into', in: 'evolved from' },
	DERIVED_FROM: { out: 'is derived from', in: 'is the basis of' },
	PART_OF: { out: 'is part of', in: 'includes' },
	SIMILAR_TO: { out: 'is similar to', in: 'is similar to' },
	PRECEDED_BY: { out: 'came after', in: 'came before' },
	EXPLAINS: { out: 'explains', in: 'is explained by' },
	SHARES_THEME: { out: 'shares a theme with', in: 'shares a theme with' },
	PARALLEL_CONTEXT: { out: 'happened alongside', in: 'happened alongside' },
	DISCOVERED: { out: 'led to discovering', in: 'was discovered through' },
};

/** What a scope is, for a newcomer meeting the word (the filter's and the form's hint). */
export const SCOPE_HINT =
	'A scope keeps a group of memories apart, such as a project or a person: duplicates are checked and similar memories linked within one scope, and a search or a sync can be limited to some scopes.';

/** "was replaced by" for a link leaving the memory in view, "replaced" for one arriving. */
export function linkPhrase(type: string, direction: 'out' | 'in' = 'out'): string {
	const p = LINK_PHRASES[type as AssociationType];
	return p ? p[direction] : type.toLowerCase().replaceAll('_', ' ');
}

/** A memory type in one style (capitalised): "Decision", "Episodic". */
export function typeLabel(type: MemoryType | string): string {
	return type ? type[0].toUpperCase() + type.slice(1) : type;
}

/** A memory's title: its summary, else the first line of its content, shortened. */
export function titleOf(m: { summary?: string; content: string } | undefined, max = 60): string {
	if (!m) return 'a deleted memory';
	// Revealed: an agent's U+202E would otherwise reverse the title and every sentence it is quoted in.
	const first = revealHidden(m.summary?.trim() || plainText(m.content.split('\n').find((l) => l.trim()) ?? m.content).trim());
	return first.length > max ? first.slice(0, max - 1).trimEnd() + '…' : first;
}

/** Field names as a person calls them. */
const FIELD_WORDS: Record<string, string> = {
	content: 'Content',
	summary: 'Summary',
	tags: 'Tags',
	type: 'Type',
	importance: 'Importance',
	confidence: 'Confidence',
	metadata: 'Metadata',
	entities: 'Entities',
	source: 'Source',
	scope: 'Scope',
	timestamp: 'Happened',
	t_valid: 'Valid from',
	t_invalid: 'Valid until',
	memory_id: 'Memory',
	memory1_id: 'This memory',
	memory2_id: 'The other memory',
	strength: 'Strength',
	query: 'Search',
	reason: 'Reason',
	observations: 'Observations',
	modelId: 'Model',
};

/**
 * Why switching to the model `id` failed, in words that say what to do: offline or out of reach of
 * the hub (the browser's "Failed to fetch"), else the engine's message; and that `active` stays in
 * use, for nothing changed.
 */
export function modelFailureWords(id: string, message: string, online: boolean, active: string): string {
	const stays = `${active} stays in use.`;
	if (!online || /failed to fetch|networkerror|network error|load failed/i.test(message))
		return `Could not download ${id}: this browser is offline or cannot reach the Hugging Face hub. Try again when online; ${stays}`;
	return `Could not switch to ${id}: ${messageWords(message)}. ${stays}`;
}

/** "1 memory", "2,001 memories": a count and its noun, singular for one. */
export function counted(n: number, one: string, many: string): string {
	return countedIn(n, one, many, n.toLocaleString());
}

/** "t_invalid" → "Valid until"; unknown fields are spelled out ("pattern_type" → "Pattern type"). */
export function fieldLabel(field: string): string {
	const base =
		field
			.replace(/\[\d+\]|\.\d+/g, '')
			.split('.')
			.at(-1) ?? field;
	return FIELD_WORDS[base] ?? (base[0]?.toUpperCase() ?? '') + base.slice(1).replaceAll('_', ' ');
}

/** Rules as zod and the engine word them → the sentence a person reads (after the field name). */
const RULES: [RegExp, (m: RegExpMatchArray) => string][] = [
	[/^Too small: expected string to have >=1 characters?/i, () => 'cannot be empty'],
	[/^must not be blank/i, () => 'cannot be empty'],
	[/^Too small: expected string to have >=(\d+) characters?/i, (m) => `needs at least ${m[1]} characters`],
	[/^Too big: expected string to have <=(\d+) characters?/i, (m) => `is too long (at most ${Number(m[1]).toLocaleString()} characters)`],
	[/^Too small: expected number to be >=?(-?[\d.]+)/i, (m) => `must be at least ${m[1]}`],
	[/^Too big: expected number to be <=?(-?[\d.]+)/i, (m) => `must be at most ${m[1]}`],
	[/^Too small: expected array to have >=(\d+) items?/i, (m) => `needs at least ${m[1]}`],
	[/^Too big: expected array to have <=(\d+) items?/i, (m) => `can have at most ${m[1]}`],
	[/^Invalid option: expected one of (.*)$/i, (m) => `must be one of ${m[1].replaceAll('|', ', ').replaceAll('"', '')}`],
	[/^Invalid input: expected (\w+), received (\w+)/i, (m) => `must be a ${m[1]}`],
	[/^no memory with (id|seq) (.*)$/i, () => 'no longer exists (it may have been deleted)'],
];

/** "tags.3" → "Tag 4" (which chip is at fault: "Tags is too long" named none); any other field as fieldLabel. */
function itemLabel(field: string): string {
	const item = /^tags(?:\.(\d+)|\[(\d+)\])$/.exec(field);
	return item ? `Tag ${Number(item[1] ?? item[2]) + 1}` : fieldLabel(field);
}

/** One rule message for `field`, as a sentence. Empty content reads "Write something to remember". */
export function ruleWords(field: string, message: string): string {
	const base = field.split('.').at(-1) ?? field;
	for (const [re, say] of RULES) {
		const m = re.exec(message.trim());
		if (!m) continue;
		const said = say(m);
		if (base === 'content' && said === 'cannot be empty') return 'Write something to remember';
		// A long paste: say what to do with it (it is all still in the box, nothing was cut).
		if (base === 'content' && said.startsWith('is too long'))
			return `Content ${said}: split it into several memories, or save it as a Markdown file and import it`;
		return field ? `${itemLabel(field)} ${said}` : capitalise(said);
	}
	return field ? `${itemLabel(field)}: ${message}` : capitalise(message);
}

/**
 * Any error from the engine, the worker or a schema check, in words: a MemoryError's message is
 * `field: rule` (core/errors.ts), a zod issue has a path and a message; anything else keeps its
 * message without a code prefix.
 */
export function errorWords(e: unknown): string {
	if (e && typeof e === 'object' && 'issues' in e && Array.isArray((e as { issues: unknown[] }).issues)) {
		const issue = (e as { issues: { path: PropertyKey[]; message: string }[] }).issues[0];
		if (issue) return issueWords(issue);
	}
	const message = e instanceof Error ? e.message : String(e);
	return messageWords(message);
}

/** A zod issue in words. */
export function issueWords(issue: { path: PropertyKey[]; message: string }): string {
	return ruleWords(issue.path.map(String).join('.'), issue.message);
}

/** A "field: rule" message (MemoryError style) in words. */
export function messageWords(message: string): string {
	const text = message.replace(/^(invalid_input|not_found|conflict|quota_exceeded|embedding_failed|not_connected):\s*/, '');
	const m = /^([a-z_][\w.[\]]*):\s+(.*)$/s.exec(text);
	return m ? ruleWords(m[1], m[2]) : capitalise(text);
}

function capitalise(s: string): string {
	return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** A field's value as a person reads it in the history ("—" when unset). */
export function valueWords(field: string, v: unknown, max = 80): string {
	if (v === undefined || v === null || v === '') return '—';
	if (Array.isArray(v)) {
		if (v.length === 0) return 'none';
		return v
			.map((x) => (typeof x === 'object' && x && 'name' in x ? String((x as { name: unknown }).name) : field === 'tags' ? `#${x}` : String(x)))
			.join(', ');
	}
	if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
	if (typeof v === 'object') {
		const keys = Object.entries(v as Record<string, unknown>);
		return keys.length ? keys.map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`).join(', ') : 'none';
	}
	if (field === 'type') return typeLabel(String(v));
	const s = String(v);
	if (/^\d{4}-\d\d-\d\dT/.test(s)) return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(s));
	const one = s.replace(/\s+/g, ' ').trim();
	return one.length > max ? one.slice(0, max - 1) + '…' : one;
}

/** "content and tags", "content, tags and importance". */
export function listWords(items: string[]): string {
	if (items.length <= 1) return items.join('');
	return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The filters set, each as a phrase that follows "memories", for an empty list to say why it is
 * empty: `tagged #c++`, `tagged with all of #c++, #Food & Drink`, `not tagged #ops`, `of type
 * Decision or Habit`, `in scope work`, `dated Mon 23 Nov – Sun 29 Nov 2026 (“last week”)`, `that
 * are current (superseded ones hidden)`. `when` is the time phrase and its window in words.
 */
export function filterWords(
	f: { tags: string[]; tagMode: 'any' | 'all'; excludeTags: string[]; types: string[]; scope: string; currentOnly: boolean },
	when?: { phrase: string; window?: string },
): string[] {
	const tags = (list: string[], joiner: string) => list.map((t) => `#${t}`).join(joiner);
	const out: string[] = [];
	if (f.tags.length === 1) out.push(`tagged ${tags(f.tags, '')}`);
	else if (f.tags.length) out.push(`tagged with ${f.tagMode === 'all' ? 'all' : 'any'} of ${tags(f.tags, ', ')}`);
	if (f.excludeTags.length) out.push(`not tagged ${tags(f.excludeTags, ' or ')}`);
	if (f.types.length) out.push(`of type ${f.types.map(typeLabel).join(' or ')}`);
	if (f.scope) out.push(`in scope ${f.scope}`);
	if (when?.phrase) out.push(when.window ? `dated ${when.window} (“${when.phrase}”)` : `dated “${when.phrase}”`);
	if (f.currentOnly) out.push('that are current (superseded ones hidden)');
	return out;
}
