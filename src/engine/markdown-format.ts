/**
 * The Markdown export: one `##` heading per memory, a metadata list, the content in a fence
 * (so any Markdown inside it survives), and the memory's outgoing links. It reads well as a
 * document and parses back: `parseMarkdown` restores memories and links from it, and takes any
 * other Markdown file as one memory per `##` section (or one for the whole file).
 */
import type { Association, AssociationType } from '../core/schemas';
import type { ExportBundle, ExportedMemory } from './export-ops';

/** Renders an export page as Markdown. */
export function renderMarkdown(b: ExportBundle, exportedAt: string): string {
	const out = [`# Engram memories`, '', `Exported ${exportedAt} · ${b.memories.length} memories · ${b.associations.length} links`, ''];
	const linksFrom = new Map<string, Association[]>();
	for (const a of b.associations) linksFrom.set(a.from, [...(linksFrom.get(a.from) ?? []), a]);
	for (const m of b.memories) out.push(...renderMemory(m, linksFrom.get(m.id) ?? []));
	return out.join('\n');
}

function headline(m: ExportedMemory): string {
	const first = (m.summary ?? m.content).split('\n')[0].replace(/^#+\s*/, '').trim();
	return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

function renderMemory(m: ExportedMemory, links: Association[]): string[] {
	const item = (k: string, v: string) => `- **${k}:** ${v}`;
	const lines = [`## #${m.seq} · ${headline(m)}`, '', item('id', code(m.id)), item('type', m.type), item('scope', m.scope)];
	if (m.tags.length) lines.push(item('tags', m.tags.map(code).join(', ')));
	lines.push(item('importance', String(m.importance)), item('confidence', String(m.confidence)));
	lines.push(item('created', m.timestamp), item('updated', m.updated_at));
	if (m.source !== undefined) lines.push(item('source', code(m.source)));
	if (m.summary !== undefined) lines.push(item('summary', code(m.summary)));
	if (m.t_valid) lines.push(item('valid from', m.t_valid));
	if (m.t_invalid) lines.push(item('valid until', m.t_invalid));
	if (m.last_accessed) lines.push(item('last accessed', m.last_accessed));
	lines.push(item('accessed', `${m.access_count} times`));
	if (m.entities.length) lines.push(item('entities', m.entities.map((e) => `${code(e.name)} (${e.type})`).join(', ')));
	if (Object.keys(m.metadata).length) lines.push(item('metadata', code(JSON.stringify(m.metadata))));
	for (const a of links) lines.push(item('link', `${a.type} → ${code(a.to)} (${a.strength})${a.reason ? ` — ${a.reason}` : ''}`));
	const fence = '`'.repeat(Math.max(3, longestRun(m.content, '`') + 1));
	lines.push('', `${fence}text`, m.content, fence, '');
	return lines;
}

function longestRun(s: string, ch: string): number {
	let best = 0;
	let cur = 0;
	for (const c of s) {
		cur = c === ch ? cur + 1 : 0;
		best = Math.max(best, cur);
	}
	return best;
}

/** Inline code that survives any backticks in `s`. */
function code(s: string): string {
	const ticks = '`'.repeat(longestRun(s, '`') + 1);
	const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
	return `${ticks}${pad}${s}${pad}${ticks}`;
}

/** A memory (partial record) or link read back from Markdown, with its line number. */
export interface MarkdownRecords {
	memories: { line: number; record: Record<string, unknown> }[];
	associations: { line: number; record: Record<string, unknown> }[];
}

const CODE_RE = /(`+) ?([\s\S]*?) ?\1(?!`)/g;

function codes(v: string): string[] {
	return [...v.matchAll(CODE_RE)].map((m) => m[2]);
}

/** Parses Markdown into memory records (see the module comment). */
export function parseMarkdown(text: string): MarkdownRecords {
	const lines = text.split(/\r?\n/);
	const starts = lines.flatMap((l, i) => (/^## /.test(l) ? [i] : []));
	if (starts.length === 0) {
		const content = text.trim();
		return { memories: content ? [{ line: 1, record: { content } }] : [], associations: [] };
	}
	const out: MarkdownRecords = { memories: [], associations: [] };
	starts.forEach((s, k) => parseSection(lines.slice(s, starts[k + 1] ?? lines.length), s + 1, out));
	return out;
}

const KEYS: Record<string, string> = {
	type: 'type', scope: 'scope', importance: 'importance', confidence: 'confidence', created: 'timestamp', updated: 'updated_at',
	'valid from': 't_valid', 'valid until': 't_invalid', 'last accessed': 'last_accessed',
};

/** One `##` section: an Engram memory when it has the metadata list, else heading + body. */
function parseSection(lines: string[], lineNo: number, out: MarkdownRecords): void {
	const rec: Record<string, unknown> = {};
	const body: string[] = [];
	let fence: string | undefined;
	let fenced: string[] | undefined;
	for (const l of lines.slice(1)) {
		if (fenced && fence) {
			if (l === fence) {
				rec.content = fenced.join('\n');
				fence = undefined;
			} else fenced.push(l);
			continue;
		}
		const open = /^(`{3,})text$/.exec(l);
		if (open && rec.content === undefined) {
			fence = open[1];
			fenced = [];
			continue;
		}
		const item = /^- \*\*(.+?):\*\* (.*)$/.exec(l);
		if (item && rec.content === undefined) readItem(item[1], item[2], rec, out, lineNo);
		else body.push(l);
	}
	const m = /^## (?:#(\d+) · )?(.*)$/.exec(lines[0])!;
	if (m[1]) rec.seq = Number(m[1]);
	if (rec.content === undefined) rec.content = [m[2], ...body].join('\n').trim();
	out.memories.push({ line: lineNo, record: rec });
}

function readItem(key: string, value: string, rec: Record<string, unknown>, out: MarkdownRecords, lineNo: number): void {
	const c = codes(value);
	if (key === 'id' || key === 'source' || key === 'summary') rec[key] = c[0] ?? value;
	else if (key === 'tags') rec.tags = c;
	else if (key === 'accessed') rec.access_count = parseInt(value, 10);
	else if (key === 'metadata') rec.metadata = safeJson(c[0]);
	else if (key === 'entities') rec.entities = [...value.matchAll(/(`+) ?([\s\S]*?) ?\1(?!`) \(([^)]+)\)/g)].map((x) => ({ name: x[2], type: x[3] }));
	else if (key === 'link') {
		const l = /^(\w+) → (`+) ?([\s\S]*?) ?\2(?!`) \(([\d.]+)\)(?: — ([\s\S]*))?$/.exec(value);
		if (l && rec.id !== undefined) {
			const a: Partial<Association> = { from: rec.id as string, to: l[3], type: l[1] as AssociationType, strength: Number(l[4]) };
			if (l[5]) a.reason = l[5];
			out.associations.push({ line: lineNo, record: a });
		}
	} else if (KEYS[key]) rec[KEYS[key]] = key === 'importance' || key === 'confidence' ? Number(value) : value;
}

function safeJson(s: string | undefined): unknown {
	try {
		return s === undefined ? undefined : JSON.parse(s);
	} catch {
		return undefined;
	}
}
