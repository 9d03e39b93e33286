/**
 * A folder (or zip) of Markdown notes, Obsidian / basic-memory style, as memory records: one note
 * is one memory. YAML front matter gives `tags` (a list, or a string split on commas or spaces,
 * `#` dropped), the dates (`created` or `date` → when it happened; `updated` or `modified` → last
 * change), `title` → summary (else the file name); other front-matter keys are kept in
 * `metadata.frontmatter`. `[[Note]]`, `[[Note|alias]]` and `[[Note#heading]]` become RELATES_TO
 * links, resolved by note name (or path, or a front-matter alias), case-insensitive, after every
 * note is read. What is not imported is listed: files that are not `.md`, links to no note.
 */
import { parse as parseYaml } from 'yaml';
import { IsoDateSchema, LIMITS } from '../core/schemas';
import { withoutBom } from '../core/text';

/** A file of the folder or zip: its path inside it and its text. */
export interface NoteFile {
	path: string;
	text: string;
}

/** A note's memory, with a temporary id the links point at. */
export interface NoteRecord {
	path: string;
	record: Record<string, unknown> & { id: string; content: string };
}

export interface NotesBundle {
	memories: NoteRecord[];
	links: { path: string; record: { from: string; to: string; type: 'RELATES_TO'; strength: number; context: string } }[];
	/** Notes refused: `path: why`. */
	errors: string[];
	/** What is not imported and why: `path: why`. */
	notImported: string[];
}

const isMarkdown = (p: string) => /\.(md|markdown)$/i.test(p);
const baseName = (p: string) =>
	p
		.split('/')
		.pop()!
		.replace(/\.(md|markdown)$/i, '');
const noExt = (p: string) => p.replace(/\.(md|markdown)$/i, '');

/** The front matter (between `---` lines at the very top) and the body after it. */
export function splitFrontMatter(text: string): { yaml?: string; body: string; bodyLine: number } {
	const t = withoutBom(text);
	const lines = t.split(/\r?\n/);
	if (lines[0]?.trim() !== '---') return { body: t, bodyLine: 1 };
	const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
	if (end < 0) return { body: t, bodyLine: 1 };
	return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

/** Tags from front matter: a list, or a string split on commas or spaces; `#` dropped. */
export function frontMatterTags(v: unknown): string[] {
	const list = Array.isArray(v) ? v.map((x) => String(x)) : typeof v === 'string' ? v.split(/[,\s]+/) : v === undefined || v === null ? [] : [String(v)];
	return [...new Set(list.map((t) => t.trim().replace(/^#/, '')).filter((t) => t !== '' && t.length <= LIMITS.tagChars))];
}

/** `[[target]]`, `[[target|alias]]`, `[[target#heading]]` in `text` (not `![[embeds]]`): the targets. */
export function wikiLinks(text: string): string[] {
	const out: string[] = [];
	let i = 0;
	for (;;) {
		const open = text.indexOf('[[', i);
		if (open < 0) break;
		const close = text.indexOf(']]', open + 2);
		if (close < 0) break;
		const inner = text.slice(open + 2, close);
		i = close + 2;
		if (text[open - 1] === '!' || inner.includes('\n') || inner.includes('[[')) continue;
		const target = inner.split('|')[0].split('#')[0].trim();
		if (target) out.push(target);
	}
	return out;
}

/** A front-matter date as an ISO string, or undefined (with the reason) when it isn't one. */
function dateOf(v: unknown): { ok?: string; bad?: string } {
	if (v === undefined || v === null || v === '') return {};
	const s = v instanceof Date ? v.toISOString() : String(v).trim();
	return IsoDateSchema.safeParse(s).success ? { ok: s } : { bad: s };
}

/** Reads the notes of a folder or zip (see the module comment); `newId` names each memory. */
export function readNotes(files: NoteFile[], newId: () => string): NotesBundle {
	const out: NotesBundle = { memories: [], links: [], errors: [], notImported: [] };
	const byName = new Map<string, string>();
	const targets: { from: string; path: string; names: string[] }[] = [];
	for (const f of files) {
		if (!isMarkdown(f.path)) {
			out.notImported.push(`${f.path}: not a Markdown note (.md)`);
			continue;
		}
		const { yaml, body } = splitFrontMatter(f.text);
		let fm: Record<string, unknown> = {};
		if (yaml !== undefined) {
			try {
				const v = parseYaml(yaml, { prettyErrors: true }) as unknown;
				if (v !== null && v !== undefined && (typeof v !== 'object' || Array.isArray(v))) throw new Error('it must be a list of key: value lines');
				fm = (v ?? {}) as Record<string, unknown>;
			} catch (e) {
				const msg = (e as Error).message.split('\n')[0];
				out.errors.push(`${f.path}: front matter: ${msg} (fix it, or remove the lines between the --- markers)`);
				continue;
			}
		}
		const content = body.trim();
		if (content === '') {
			out.errors.push(`${f.path}: the note has no text${yaml !== undefined ? ' below its front matter' : ''}`);
			continue;
		}
		const { title, tags, created, date, updated, modified, aliases, ...rest } = fm;
		const record: NoteRecord['record'] = { id: newId(), content, tags: frontMatterTags(tags), source: f.path };
		const summary = typeof title === 'string' && title.trim() ? title.trim() : baseName(f.path);
		if (summary.length <= LIMITS.summaryChars) record.summary = summary;
		const when = dateOf(created ?? date);
		const changed = dateOf(updated ?? modified);
		if (when.ok) record.timestamp = when.ok;
		if (changed.ok) record.updated_at = changed.ok;
		// Nothing is dropped: unreadable dates and other keys stay in the metadata.
		const keep: Record<string, unknown> = { ...rest };
		if (when.bad) keep[created !== undefined ? 'created' : 'date'] = when.bad;
		if (changed.bad) keep[updated !== undefined ? 'updated' : 'modified'] = changed.bad;
		if (aliases !== undefined) keep.aliases = aliases;
		if (Object.keys(keep).length) record.metadata = { frontmatter: JSON.parse(JSON.stringify(keep)) as unknown };
		out.memories.push({ path: f.path, record });
		const aliasList = Array.isArray(aliases) ? aliases.map(String) : typeof aliases === 'string' ? [aliases] : [];
		for (const name of [baseName(f.path), noExt(f.path), ...aliasList]) {
			const k = name.toLowerCase();
			if (!byName.has(k)) byName.set(k, record.id);
		}
		targets.push({ from: record.id, path: f.path, names: wikiLinks(content) });
	}
	// Links are resolved once every note is known (a note may link to one read after it).
	for (const { from, path, names } of targets) {
		const seen = new Set<string>();
		for (const name of names) {
			const to = byName.get(name.toLowerCase()) ?? byName.get(noExt(name).toLowerCase()) ?? byName.get(baseName(name).toLowerCase());
			if (!to) {
				out.notImported.push(`${path}: [[${name}]]: no note of that name, so no link`);
				continue;
			}
			if (to === from || seen.has(to)) continue;
			seen.add(to);
			out.links.push({ path, record: { from, to, type: 'RELATES_TO', strength: 0.5, context: `[[${name}]]` } });
		}
	}
	return out;
}
