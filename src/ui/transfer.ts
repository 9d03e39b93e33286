/**
 * Import and export in steps the person can follow and cancel. Engram JSON/JSONL files are cut
 * into chunks of memories (each chunk is imported in the engine's ≤ 500-record transactions), with
 * entities and associations last so every link finds both ends; other formats go in one call.
 * Exports are read page by page and assembled into one file.
 */
import { proxy } from 'comlink';
import { LIMITS, type Association, type ExportInput, type ImportInput, type ImportOutput } from '../core/schemas';
import { chatList, chatNotImported, chatRecords } from '../engine/import-chats';
import { detectFormat, EMPTY_FILE, ImportErrors, isBlank, parseGraphJsonl, parseMarkdownBundle } from '../engine/import-formats';
import { graphLinks, graphPlan } from '../engine/import-graph';
import { mem0List, mem0Memory } from '../engine/import-mem0';
import { csvRecords, type CsvColumns, type CsvTable } from '../engine/import-csv';
import { readNotes, type NoteFile } from '../engine/import-notes';
import { newMemoryId } from '../core/ids';
import { unzipSync } from 'fflate';
import { textOf } from './read-file';
import { counted } from './words';
import type { Progress } from '../engine/types';
import type { EngineProxy } from './state/engine-proxy';
import type { TaskHandle } from './state/tasks.svelte';

/** The formats a person can pick; 'auto' lets the engine detect. */
export type ImportFormatChoice = NonNullable<ImportInput['format']>;

/** Memories per import call: big enough to be fast, small enough to cancel and show progress. */
export const IMPORT_CHUNK = 2_000;
/** Characters per import call at most (half the engine's cap, so a chunk never reaches it). */
const CHUNK_CHARS = LIMITS.importChars / 2;
/** Errors shown (the engine's cap). */
const SHOWN_ERRORS = 50;
/** Memories per export page. */
const EXPORT_PAGE = 5_000;

type Rec = Record<string, unknown>;

/** Guesses the format of a file's text the way the engine does (by content; see detectFormat). */
export function sniffFormat(text: string): Exclude<ImportFormatChoice, 'auto'> {
	return detectFormat(text);
}

/** One record and where it came from: its file line (0 when none), or a label such as `results[2]` or a note's path. */
export interface Item {
	rec: Rec;
	line: number;
	label?: string;
}

/** An Engram bundle split into records. */
export interface Bundle {
	header: Rec;
	memories: Item[];
	entities: Item[];
	associations: Item[];
	vectors: Item[];
	/** Lines that did not parse; passed through so the engine reports them with its rules. */
	bad: { text: string; line: number }[];
	/** Records refused while reading the file (before the engine sees it). */
	errors: { line?: number; error: string }[];
	/** Parts of the file that are not memories, and why. */
	notImported: { line?: number; text: string }[];
}

export function emptyBundle(header: Rec = { kind: 'header', format: 'engram', version: 1 }): Bundle {
	return { header, memories: [], entities: [], associations: [], vectors: [], bad: [], errors: [], notImported: [] };
}

function bundleFromJsonl(text: string): Bundle {
	const b = emptyBundle();
	const lists: Record<string, Item[]> = { memory: b.memories, entity: b.entities, association: b.associations, vector: b.vectors };
	text.split('\n').forEach((raw, i) => {
		if (!raw.trim()) return;
		let rec: Rec;
		try {
			rec = JSON.parse(raw) as Rec;
		} catch {
			return b.bad.push({ text: raw, line: i + 1 });
		}
		// A plain record (content, no kind) is a memory.
		const kind = rec !== null && typeof rec === 'object' && rec.kind === undefined && 'content' in rec ? 'memory' : String(rec?.kind);
		if (rec?.kind === 'header') b.header = rec;
		else if (lists[kind]) lists[kind].push({ rec: { ...rec, kind }, line: i + 1 });
		else b.bad.push({ text: raw, line: i + 1 });
	});
	return b;
}

/**
 * What a chosen chat or mem0 export holds, for the Import screen before anything is written: the
 * service by name and how many conversations or memories, e.g. "a Claude chat export
 * (conversations.json): 12 conversations". Undefined for anything else.
 */
export function describeExport(text: string): string | undefined {
	let doc: unknown;
	try {
		doc = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
	} catch {
		return undefined;
	}
	const n = (k: number, one: string, many: string) => `${k.toLocaleString()} ${k === 1 ? one : many}`;
	const chats = chatList(doc);
	if (chats)
		return `a ${chats.source === 'chatgpt' ? 'ChatGPT' : 'Claude'} chat export (conversations.json): ${n(chats.list.length, 'conversation', 'conversations')}`;
	const mem0 = mem0List(doc);
	if (mem0) return `a mem0 export: ${n(mem0.list.length, 'memory', 'memories')}`;
	return undefined;
}

/** Files of a ChatGPT or Claude export that hold no chats, by name: a person picks one of them for conversations.json. */
const EXPORT_COMPANIONS: Record<string, string> = {
	'user.json': 'ChatGPT',
	'shared_conversations.json': 'ChatGPT',
	'message_feedback.json': 'ChatGPT',
	'model_comparisons.json': 'ChatGPT',
	'users.json': 'Claude',
	'projects.json': 'Claude',
};

/** What a JSON or JSONL file of records will bring in, said before the import. */
export interface RecordsPreview {
	/** "2 memories", "3 memories, 4 links; 1 record will be refused (the result says why)", or why nothing will be imported. */
	says: string;
	/** True when nothing in the file can be imported. */
	nothing: boolean;
}

/**
 * What importing a file of records will do, before it is done: the memories (and links, entities)
 * it holds and the records that will be refused, or, when none can be imported, why (a JSON object
 * that is not a list of records, records without "content") and, for a file of a chat export that
 * holds no chats, where the chats are. One JSON parse (≈0.5 s for 50 MB); the records are checked
 * field by field only by the import.
 */
export function recordsPreview(text: string, format: 'json' | 'jsonl', name: string): RecordsPreview {
	const base =
		name
			.split(/[\\/›]/)
			.at(-1)
			?.trim()
			.toLowerCase() ?? '';
	const service = EXPORT_COMPANIONS[base];
	const where = service ? ` ${base} is part of a ${service} export: its chats are in conversations.json beside it (or choose the export's .zip).` : '';
	const keysOf = (v: unknown) =>
		v !== null && typeof v === 'object' && !Array.isArray(v)
			? Object.keys(v)
					// `kind` is the bundle's own mark, not the file's.
					.filter((k) => k !== 'kind')
					.slice(0, 5)
					.map((k) => JSON.stringify(k.slice(0, 40)))
					.join(', ')
			: '';
	const b = format === 'jsonl' ? bundleFromJsonl(text) : bundleFromJson(text);
	if (!b) {
		let doc: unknown;
		try {
			doc = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
		} catch {
			return { says: 'Nothing to import: this is not valid JSON (the import names the line).', nothing: true };
		}
		const keys = keysOf(doc);
		return {
			says: `Nothing to import: this JSON is not a list of records${keys ? ` (its top level has ${keys})` : ''}. Engram reads [{"content": "…"}] records or {"memories": [...]}.${where}`,
			nothing: true,
		};
	}
	const hasText = (i: Item) => typeof i.rec.content === 'string' && i.rec.content.trim() !== '';
	const memories = b.memories.filter(hasText).length;
	const refused = b.memories.length - memories + b.bad.length + b.errors.length;
	const kept = memories + b.associations.length + b.entities.length;
	if (kept === 0 && b.memories.length === 0 && b.bad.length && b.bad.every((l) => parsedLine(l.text) === undefined))
		return { says: 'Nothing to import: no line of this file is a JSON record (the import names each line and what is wrong).', nothing: true };
	if (kept === 0) {
		const first = b.memories[0]?.rec ?? parsedLine(b.bad[0]?.text);
		const keys = keysOf(first);
		return {
			says:
				`Nothing to import: ${refused === 1 ? 'its one record has no text in "content"' : `none of its ${refused.toLocaleString()} records has its text in "content"`}` +
				`${keys ? ` (${refused === 1 ? 'it has' : 'the first has'} ${keys})` : ''}.${where}`,
			nothing: true,
		};
	}
	const parts = [counted(memories, 'memory', 'memories')];
	if (b.associations.length) parts.push(counted(b.associations.length, 'link', 'links'));
	if (b.entities.length) parts.push(counted(b.entities.length, 'entity', 'entities'));
	const left = refused ? `; ${counted(refused, 'record', 'records')} will be refused (the result says why)` : '';
	return { says: parts.join(', ') + left, nothing: false };
}

/** Characters of Markdown read for a preview at most (the parse checks each memory; a bigger file is counted by the import). */
const MARKDOWN_PREVIEW_CHARS = 2_000_000;

/**
 * What a Markdown file will bring in, before the import: a foreign note is cut into one memory per
 * list item or paragraph, each tagged with the heading it is under, which a person does not expect
 * from "looks like Markdown". Undefined for a file too big to read twice.
 */
export function markdownPreview(text: string): RecordsPreview | undefined {
	if (text.length > MARKDOWN_PREVIEW_CHARS) return undefined;
	const n = parseMarkdownBundle(text).memories.length;
	if (n === 0) return { says: 'Nothing to import: no paragraph or list item holds text.', nothing: true };
	// Engram's own export (and any file of "## " sections) is read a memory per section: the count says it.
	if (/^\uFEFF?# Engram memories\s*$/m.test(text.slice(0, 200)) || /^## /m.test(text)) return { says: counted(n, 'memory', 'memories'), nothing: false };
	return { says: `${counted(n, 'memory', 'memories')} (each list item or paragraph is one, tagged with the heading it is under)`, nothing: false };
}

/** A JSONL line's record, or undefined. */
function parsedLine(line: string | undefined): unknown {
	try {
		return line === undefined ? undefined : (JSON.parse(line) as unknown);
	} catch {
		return undefined;
	}
}

/** A JSON document (mem0, a chat export, records) as a bundle, or undefined when it is not JSON. */
export function bundleFromJson(text: string): Bundle | undefined {
	let doc: unknown;
	try {
		doc = JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
	const b = emptyBundle();
	const mem0 = mem0List(doc);
	if (mem0) {
		mem0.list.forEach((r, i) => {
			const label = `${mem0.key || 'records'}[${i}]`;
			const m = mem0Memory(r);
			if ('error' in m) b.errors.push({ error: `${label}: ${m.error}` });
			else b.memories.push({ rec: { kind: 'memory', ...m.record }, line: 0, label });
		});
		return b;
	}
	const chats = chatList(doc);
	if (chats) {
		const read = chatRecords(chats.source, chats.list);
		const label = (n: number) => `conversation ${n}`;
		b.errors = read.errors.map(({ conversation, error }) => ({ error: `${label(conversation)}: ${error}` }));
		b.memories = read.records.map(({ conversation, record }) => ({ rec: { kind: 'memory', ...record }, line: 0, label: label(conversation) }));
		b.associations = read.links.map(({ conversation, record }) => ({ rec: { kind: 'association', ...record }, line: 0, label: label(conversation) }));
		b.notImported.push(...chatNotImported(read).map((text) => ({ text })));
		return b;
	}
	const plain = Array.isArray(doc);
	const d = (plain ? { memories: doc } : doc) as Rec;
	if (d === null || typeof d !== 'object' || !Array.isArray(d.memories)) return undefined;
	const items = (key: string, kind: string) =>
		(Array.isArray(d[key]) ? (d[key] as unknown[]) : []).flatMap((r, i) => {
			const label = plain ? `record ${i + 1}` : `${key}[${i}]`;
			// Spread, a string would become {"0": …, "1": …}: say what it is instead.
			if (r === null || typeof r !== 'object' || Array.isArray(r)) {
				b.errors.push({ error: `${label}: ${kind}: must be an object (got ${r === null ? 'null' : Array.isArray(r) ? 'an array' : typeof r})` });
				return [];
			}
			return [{ rec: { ...(r as Rec), kind }, line: 0, label }];
		});
	if (!plain) b.header = { kind: 'header', format: 'engram', version: d.version ?? 1, exported_at: d.exported_at };
	b.memories = items('memories', 'memory');
	b.entities = items('entities', 'entity');
	b.associations = items('associations', 'association');
	b.vectors = items('vectors', 'vector');
	return b;
}

/**
 * A Markdown file read in the page (as the engine reads it), so that its memories get stable ids
 * like any other file's (see withStableIds) and it is imported in chunks with progress.
 */
function bundleFromMarkdown(text: string): Bundle {
	const md = parseMarkdownBundle(text);
	const b = emptyBundle();
	b.memories = md.memories.map(({ line, value }) => ({ rec: { kind: 'memory', ...value }, line }));
	b.associations = md.associations.map(({ line, value }) => ({ rec: { kind: 'association', ...value }, line }));
	b.errors = md.errors.list();
	b.notImported = md.notImported.list();
	return b;
}

/** One import call's data, and the file line of each of its lines (to report errors where they are). */
interface Chunk {
	data: string;
	memories: number;
	/** The ids of the chunk's memories (all set by then: see withStableIds), for Undo. */
	ids?: string[];
	lines: number[];
	/** Where each line's record came from when it has no file line (a note's path, `results[2]`). */
	labels: (string | undefined)[];
}

/** A record as one JSONL line: a memory with its vectors, a link, an entity, or a bad line as it was. */
interface Unit {
	ids?: string[];
	texts: string[];
	lines: number[];
	labels: (string | undefined)[];
	chars: number;
	memories: number;
}

/**
 * Cuts a bundle into JSONL chunks of ≤ `size` memories and ≤ CHUNK_CHARS characters: memories (with
 * their vectors) first, links last. A record too big for any chunk is refused here, with its line.
 */
function chunksOf(b: Bundle, size: number, tooBig: { line?: number; error: string }[]): Chunk[] {
	const vectorsOf = new Map<string, Item[]>();
	for (const v of b.vectors) {
		const list = vectorsOf.get(String(v.rec.memory_id));
		if (list) list.push(v);
		else vectorsOf.set(String(v.rec.memory_id), [v]);
	}
	const header = JSON.stringify(b.header);
	const unit = (items: Item[], memories: number): Unit => {
		const texts = items.map((it) => JSON.stringify(it.rec));
		const ids = memories ? [String(items[0].rec.id)] : [];
		return {
			ids,
			texts,
			lines: items.map((it) => it.line),
			labels: items.map((it) => it.label),
			chars: texts.reduce((n, t) => n + t.length + 1, 0),
			memories,
		};
	};
	const ids = new Set(b.memories.map((m) => String(m.rec.id)));
	const units = [
		...b.memories.map((m) => unit([m, ...(vectorsOf.get(String(m.rec.id)) ?? [])], 1)),
		// Vectors of no memory in the file go on their own, for the engine to refuse with their lines.
		...[...vectorsOf].flatMap(([id, list]) => (ids.has(id) ? [] : list.map((v) => unit([v], 0)))),
		...[...b.entities, ...b.associations].map((it) => unit([it], 0)),
		...b.bad.map((x) => ({ texts: [x.text], lines: [x.line], labels: [undefined], chars: x.text.length + 1, memories: 0 })),
	];
	const chunks: Chunk[] = [];
	let cur: Unit[] = [];
	let chars = 0;
	let count = 0;
	const flush = () => {
		if (cur.length === 0) return;
		chunks.push({
			data: [header, ...cur.flatMap((u) => u.texts)].join('\n'),
			memories: cur.reduce((n, u) => n + u.memories, 0),
			ids: cur.flatMap((u) => u.ids ?? []),
			lines: [0, ...cur.flatMap((u) => u.lines)],
			labels: [undefined, ...cur.flatMap((u) => u.labels)],
		});
		cur = [];
		chars = count = 0;
	};
	for (const u of units) {
		if (u.chars + header.length > CHUNK_CHARS) {
			const error = `record: over ${CHUNK_CHARS.toLocaleString()} characters`;
			tooBig.push(u.labels[0] ? { error: `${u.labels[0]}: ${error}` } : { line: u.lines[0], error });
			continue;
		}
		// Memories and the rest never share a chunk: links go after every memory is in.
		const kindChanges = cur.length > 0 && cur[0].memories > 0 !== u.memories > 0;
		if (kindChanges || count >= size || chars + u.chars > CHUNK_CHARS) flush();
		cur.push(u);
		chars += u.chars;
		count++;
	}
	flush();
	return chunks;
}

/** Rewrites an engine error's (or left-out record's) line in the chunk to the line in the person's file. */
function fileLines(out: ImportOutput, chunk: Chunk): ImportOutput {
	const where = (at: number | undefined, text: string) => {
		const label = at !== undefined ? chunk.labels[at - 1] : undefined;
		if (label) return { text: `${label}: ${text}` };
		const line = at !== undefined ? chunk.lines[at - 1] : undefined;
		return line ? { line, text } : { text };
	};
	return {
		...out,
		errors: out.errors.map((e) => {
			const { line, text } = where(e.line, e.error);
			return line ? { line, error: text } : { error: text };
		}),
		...(out.not_imported && { not_imported: out.not_imported.map((n) => where(n.line, n.text)) }),
	};
}

/** An engine's "… and N more errors" entry (it stands for errors counted in `refused`). */
function isMoreNote(e: ImportOutput['errors'][number]): boolean {
	return e.line === undefined && /^… and \d+ more errors$/.test(e.error);
}

function addOutput(total: ImportOutput, part: ImportOutput): ImportOutput {
	const refused = total.refused + part.refused;
	// In file order: lines that are not JSON are checked in a later call than the records around them.
	const errors = [...total.errors, ...part.errors]
		.filter((e) => !isMoreNote(e))
		.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity))
		.slice(0, SHOWN_ERRORS);
	if (refused > errors.length && errors.length >= SHOWN_ERRORS) errors[SHOWN_ERRORS - 1] = { error: `… and ${refused - SHOWN_ERRORS + 1} more errors` };
	const notImported = [...(total.not_imported ?? []), ...(part.not_imported ?? [])]
		.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity))
		.slice(0, SHOWN_ERRORS);
	return {
		...(notImported.length ? { not_imported: notImported } : {}),
		success: total.success && part.success,
		message: '',
		imported: total.imported + part.imported,
		replaced: total.replaced + part.replaced,
		skipped: total.skipped + part.skipped,
		associations: total.associations + part.associations,
		entities: total.entities + part.entities,
		...((total.kept_differing ?? 0) + (part.kept_differing ?? 0) > 0 && { kept_differing: (total.kept_differing ?? 0) + (part.kept_differing ?? 0) }),
		refused,
		errors,
	};
}

/** The engine's import with a progress callback (the worker-side Engine accepts a third argument). */
type ImportWithProgress = (input: ImportInput, ctx: { actor: string }, onProgress?: (p: Progress) => void) => Promise<ImportOutput>;

/** What a file was read as: an engine format, a folder or zip of notes, or a CSV. */
export type ImportedAs = Exclude<ImportFormatChoice, 'auto'> | 'notes' | 'csv';

/** The import's outcome, including whether the person cancelled part-way. */
export interface ImportResult extends ImportOutput {
	cancelled: boolean;
	/** Memories of the file that a Cancel left unread (neither imported nor refused). */
	notReached?: number;
	format: ImportedAs;
	/** What Undo needs (see undoImport); absent when the ids were not known before the import. */
	undo?: ImportUndo;
}

/**
 * How to take an import back: the ids it added (those not there before; refused ones among them
 * are simply not found) and, when it replaced memories, those memories as they were (lossless
 * JSON exports, one per chunk).
 */
export interface ImportUndo {
	added: string[];
	before: string[];
	/** The links it may have written between memories that were there before it, each as it was then. */
	links?: LinkBefore[];
	/** When the import ended (ISO): a memory updated after it was changed since, and Undo leaves it. */
	ended?: string;
}

/**
 * A link an import names between two memories that were both there before it (deleting what the
 * import added does not take it back), and that link as it was then (`was`: absent when there
 * was none).
 */
export interface LinkBefore {
	from: string;
	to: string;
	type: string;
	was?: Association;
}

/** Source memories whose links are read at once (each is one call to the engine). */
const LINK_READS = 50;

/** The links leaving each of `ids`, by id. */
async function linksFrom(engine: EngineProxy, ids: string[]): Promise<Map<string, Association[]>> {
	const out = new Map<string, Association[]>();
	for (let i = 0; i < ids.length; i += LINK_READS) {
		const part = ids.slice(i, i + LINK_READS);
		const lists = await Promise.all(part.map((id) => engine.associationsOf(id)));
		part.forEach((id, k) =>
			out.set(
				id,
				lists[k].filter((a) => a.from === id),
			),
		);
	}
	return out;
}

/**
 * The links among `links` whose two ends are not among the memories the import adds, each with
 * the link as it is now (before the import writes it), for Undo.
 */
async function linksBefore(engine: EngineProxy, links: { from: string; to: string; type: string }[], added: Set<string>): Promise<LinkBefore[]> {
	const old = links.filter((l) => !added.has(l.from) && !added.has(l.to));
	const stored = await linksFrom(engine, [...new Set(old.map((l) => l.from))]);
	return old.map(({ from, to, type }) => {
		const was = stored.get(from)?.find((a) => a.to === to && a.type === type);
		return was ? { from, to, type, was } : { from, to, type };
	});
}

/** Whether two links say the same, whatever the order of their fields. */
function sameLink(a: Association, b: Association): boolean {
	const sorted = (l: Association) => JSON.stringify(Object.entries(l).sort(([x], [y]) => (x < y ? -1 : 1)));
	return sorted(a) === sorted(b);
}

/**
 * Takes back the links an import wrote between memories that were there before it: a new one is
 * removed, one it changed is put back as it was; one changed since the import ended is left.
 */
async function undoLinks(engine: EngineProxy, links: LinkBefore[], ended: number): Promise<{ undone: number; kept: number }> {
	const now = await linksFrom(engine, [...new Set(links.map((l) => l.from))]);
	let undone = 0;
	let kept = 0;
	const putBack: Association[] = [];
	for (const l of links) {
		const cur = now.get(l.from)?.find((a) => a.to === l.to && a.type === l.type);
		if (!cur || (l.was && sameLink(cur, l.was))) continue;
		if (Date.parse(cur.updated_at ?? cur.created_at) > ended) kept++;
		else if (l.was) putBack.push(l.was);
		else undone += (await engine.deleteAssociation({ memory1_id: l.from, memory2_id: l.to, type: cur.type }, { actor: 'app' })).removed_count;
	}
	if (putBack.length) {
		const header = JSON.stringify({ kind: 'header', format: 'engram', version: 1 });
		const data = [header, ...putBack.map((a) => JSON.stringify({ kind: 'association', ...a }))].join('\n');
		undone += (await engine.importMemories({ data, format: 'jsonl', on_conflict: 'replace' }, { actor: 'app' })).associations;
	}
	return { undone, kept };
}

/**
 * Takes an import back: deletes the memories it added (with their links), puts back, exactly,
 * those it replaced, and takes back the links it wrote between memories that were already there.
 * A memory or link changed since the import ended (an agent's or a person's edit, `updated_at`
 * after `ended`) is left as it is, neither deleted nor put back: Undo never loses an edit made
 * after the import. Returns how many memories were removed, put back and left, and how many links
 * were taken back and left.
 */
export async function undoImport(
	engine: EngineProxy,
	undo: ImportUndo,
): Promise<{ removed: number; restored: number; kept: number; links: number; keptLinks: number }> {
	const ended = undo.ended ? Date.parse(undo.ended) : Infinity;
	const changed = async (ids: string[]) => new Set((await engine.getMemories(ids)).flatMap((m) => (m && Date.parse(m.updated_at) > ended ? [m.id] : [])));
	let removed = 0;
	let restored = 0;
	let kept = 0;
	const { undone: links, kept: keptLinks } = undo.links?.length ? await undoLinks(engine, undo.links, ended) : { undone: 0, kept: 0 };
	for (let i = 0; i < undo.added.length; i += LIMITS.batch) {
		const ids = undo.added.slice(i, i + LIMITS.batch);
		const leave = await changed(ids);
		kept += leave.size;
		const go = ids.filter((id) => !leave.has(id));
		if (go.length) removed += (await engine.delete({ memory_ids: go }, { actor: 'app' })).deleted_count;
	}
	for (const data of undo.before) {
		const bundle = JSON.parse(data) as { memories: { id: string }[]; associations?: { from: string }[] };
		const leave = await changed(bundle.memories.map((m) => m.id));
		kept += leave.size;
		if (leave.size === bundle.memories.length) continue;
		const rest = leave.size
			? JSON.stringify({
					...bundle,
					memories: bundle.memories.filter((m) => !leave.has(m.id)),
					associations: bundle.associations?.filter((a) => !leave.has(a.from)),
				})
			: data;
		const out = await engine.importMemories({ data: rest, format: 'json', on_conflict: 'replace' }, { actor: 'app' });
		restored += out.imported + out.replaced;
	}
	return { removed, restored, kept, links, keptLinks };
}

/**
 * Imports a file's text with progress; Cancel stops between chunks (every chunk already written
 * is whole: the engine writes each batch in one transaction). A blank file is refused as empty
 * before any format guess.
 */
export async function importText(
	engine: EngineProxy,
	text: string,
	opts: ImportOptions & { format: ImportFormatChoice },
	task: TaskHandle,
): Promise<ImportResult> {
	if (isBlank(text)) throw new Error(EMPTY_FILE);
	const format = opts.format === 'auto' ? sniffFormat(text) : opts.format;
	const bundle =
		format === 'jsonl'
			? bundleFromJsonl(text)
			: format === 'json' || format === 'mem0-json' || format === 'chat-json'
				? bundleFromJson(text)
				: format === 'markdown'
					? bundleFromMarkdown(text)
					: undefined;
	if (bundle) return importBundle(engine, bundle, format, opts, task);
	const whole = [{ data: text, memories: 0, lines: [], labels: [] }];
	const undo = format === 'server-memory-jsonl' ? await graphUndo(engine, text, opts) : undefined;
	return run(engine, undefined, whole, format, opts, task, [], undo);
}

/**
 * What Undo of a server-memory graph needs, worked out before it is imported as the engine will
 * import it (the same ids: see graphPlan): the memories not there yet, those it would replace as
 * they are, and the links it would write between memories already there.
 */
async function graphUndo(engine: EngineProxy, text: string, opts: ImportOptions): Promise<ImportUndo> {
	const g = parseGraphJsonl(text);
	const { items, anchors } = graphPlan(g, opts.scope);
	const undo: ImportUndo = { added: [], before: [] };
	for (let i = 0; i < items.length; i += LIMITS.batch) {
		const ids = items.slice(i, i + LIMITS.batch).map((it) => it.id);
		const found = await engine.getMemories(ids);
		undo.added.push(...ids.filter((_, k) => !found[k]));
		const there = ids.filter((_, k) => found[k]);
		if (opts.onConflict === 'replace' && there.length) undo.before.push(await engine.exportByIds(there));
	}
	const links = graphLinks(g, anchors, new ImportErrors()).map((l) => ({ from: l.memory1_id, to: l.memory2_id, type: l.type }));
	undo.links = await linksBefore(engine, links, new Set(undo.added));
	return undo;
}

/**
 * Gives every memory record without an id (plain records, mem0's, a CSV's rows) one made from what
 * it says: its scope, content, tags, time and mem0 id. Importing the same file again, say after
 * fixing the one line that was refused, then finds its memories already there instead of storing
 * a second copy of each; the same record in another scope is another memory. A record said twice
 * in one file (a repeated bullet, a chat's second "Thanks!") is two memories: its n-th repeat's id
 * also counts n, so nothing the file holds is folded away and importing it again still adds none.
 */
export async function withStableIds(b: Bundle, scope: string | undefined): Promise<void> {
	const made = await Promise.all(
		b.memories.map(async ({ rec }) => {
			if (rec.id !== undefined || typeof rec.content !== 'string') return undefined;
			const mem0 = (rec.metadata as { mem0?: { id?: unknown } } | undefined)?.mem0?.id;
			const what = [scope ?? rec.scope ?? 'default', rec.content, rec.tags ?? [], rec.timestamp ?? '', rec.type ?? '', mem0 ?? ''];
			return { what, id: `import:${await digestOf(what)}` };
		}),
	);
	const seen = new Map<string, number>();
	for (let i = 0; i < made.length; i++) {
		const m = made[i];
		if (!m) continue;
		const n = seen.get(m.id) ?? 0;
		seen.set(m.id, n + 1);
		b.memories[i].rec.id = n === 0 ? m.id : `import:${await digestOf([...m.what, n])}`;
	}
}

/** The first 12 bytes of the SHA-256 of `what` as JSON, in hex. */
async function digestOf(what: unknown): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(what))));
	return [...digest.subarray(0, 12)].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * A folder's or zip's notes named by their scope, path and text instead of fresh ids (their links
 * follow), so importing the same notes again finds them already there.
 */
export async function stableNoteIds(b: Bundle, scope: string | undefined): Promise<void> {
	const ids = new Map<unknown, string>();
	await Promise.all(
		b.memories.map(async ({ rec }) => {
			const id = `note:${await digestOf([scope ?? rec.scope ?? 'default', rec.source ?? '', rec.content])}`;
			ids.set(rec.id, id);
			rec.id = id;
		}),
	);
	for (const { rec } of b.associations) {
		rec.from = ids.get(rec.from) ?? rec.from;
		rec.to = ids.get(rec.to) ?? rec.to;
	}
}

/**
 * Within one file the last record for an id wins, and each earlier one is refused naming the line
 * (or place) of the one imported, as the engine does within one call: done here because a file
 * goes in several calls, where a repeat in a later chunk was skipped as existing and the lines
 * the engine names were those of its chunk.
 */
function lastOfEachId(memories: Item[], errors: { line?: number; error: string }[]): Item[] {
	const last = new Map<unknown, number>();
	memories.forEach((m, i) => {
		if (m.rec.id !== undefined) last.set(m.rec.id, i);
	});
	const where = (m: Item) => m.label ?? `line ${m.line}`;
	return memories.filter((m, i) => {
		const keep = m.rec.id === undefined || last.get(m.rec.id) === i;
		if (!keep) {
			const error = `memory: id ${JSON.stringify(m.rec.id)} is given again at ${where(memories[last.get(m.rec.id)!])}, which is imported`;
			errors.push(m.label ? { error: `${m.label}: ${error}` } : { line: m.line, error });
		}
		return keep;
	});
}

/** How to import: what to do with existing ids, the scope to put memories in, memories per call. */
export interface ImportOptions {
	onConflict: 'skip' | 'replace';
	scope?: string;
	chunkSize?: number;
}

/**
 * Imports records read in the page (a notes folder or zip, a CSV, a JSON/JSONL file) through the
 * engine's import in chunks: memories first, links after every memory is in.
 */
export async function importBundle(engine: EngineProxy, bundle: Bundle, format: ImportedAs, opts: ImportOptions, task: TaskHandle): Promise<ImportResult> {
	if (format === 'notes') await stableNoteIds(bundle, opts.scope);
	else await withStableIds(bundle, opts.scope);
	const pre: { line?: number; error: string }[] = [...bundle.errors];
	bundle.memories = lastOfEachId(bundle.memories, pre);
	const chunks = chunksOf(bundle, opts.chunkSize ?? IMPORT_CHUNK, pre);
	return run(engine, bundle, chunks, format, opts, task, pre);
}

async function run(
	engine: EngineProxy,
	bundle: Bundle | undefined,
	chunks: Chunk[],
	format: ImportedAs,
	opts: ImportOptions,
	task: TaskHandle,
	pre: { line?: number; error: string }[],
	given?: ImportUndo,
): Promise<ImportResult> {
	// Bound: a comlink proxy doesn't need `this`, but the engine itself (tests, a same-thread engine) does.
	const call = (engine.importMemories as unknown as ImportWithProgress).bind(engine);
	const engineFormat = bundle ? 'jsonl' : (format as ImportInput['format']);
	const base: Omit<ImportInput, 'data'> = { format: engineFormat, on_conflict: opts.onConflict, ...(opts.scope && { scope: opts.scope }) };
	const totalMemories = bundle?.memories.length ?? 0;
	const none: ImportOutput = { success: true, message: '', imported: 0, replaced: 0, skipped: 0, associations: 0, entities: 0, refused: 0, errors: [] };
	let result = pre.length ? addOutput(none, { ...none, success: false, refused: pre.length, errors: pre.slice(0, SHOWN_ERRORS) }) : none;
	if (bundle?.notImported.length) result = addOutput(result, { ...none, not_imported: bundle.notImported.slice(0, SHOWN_ERRORS) });
	let done = 0;
	// Undo is known only where every memory's id is known before it is written (a bundle, a graph).
	const undo: ImportUndo | undefined = given ?? (bundle ? { added: [], before: [] } : undefined);
	const withUndo = (r: ImportResult): ImportResult => (undo && (r.imported || r.replaced || (r.associations && undo.links?.length)) ? { ...r, undo } : r);
	for (const chunk of chunks) {
		if (task.cancelled) {
			if (undo) undo.ended = new Date().toISOString();
			const notReached = bundle ? Math.max(0, totalMemories - done) : 0;
			return withUndo({ ...result, cancelled: true, notReached, format, message: summary(result, true, totalMemories, notReached) });
		}
		// Links go after every memory: those between memories already there are read as they are now.
		if (undo && bundle && !undo.links && chunk.memories === 0 && bundle.associations.length) {
			const links = bundle.associations.map(({ rec }) => ({ from: String(rec.from), to: String(rec.to), type: String(rec.type) }));
			undo.links = await linksBefore(engine, links, new Set(undo.added));
		}
		if (undo && chunk.ids?.length) {
			const found = await engine.getMemories(chunk.ids);
			undo.added.push(...chunk.ids.filter((_, i) => !found[i]));
			const there = chunk.ids.filter((_, i) => found[i]);
			if (opts.onConflict === 'replace' && there.length) undo.before.push(await engine.exportByIds(there));
		}
		if (chunk.data.length > LIMITS.importChars) throw new Error(`data: a chunk is over ${LIMITS.importChars.toLocaleString()} characters; split the file`);
		const onProgress = proxy((p: Progress) => {
			if (bundle) task.progress(Math.min(totalMemories, done + Math.min(p.done, chunk.memories)), totalMemories, p.message);
			else task.progress(p.done, p.total, p.message);
		});
		const out = await call({ ...base, data: chunk.data }, { actor: 'app' }, onProgress);
		result = addOutput(result, bundle ? fileLines(out, chunk) : out);
		done += chunk.memories;
		task.progress(done, totalMemories || 1, chunk.memories ? 'memories' : 'links');
	}
	if (undo) undo.ended = new Date().toISOString();
	return withUndo({ ...result, cancelled: false, format, message: summary(result, false) });
}

/**
 * How an import went: everything in (`success`), some records refused (`partial`), nothing
 * written (`nothing`: a warning, whatever the reason), or nothing new because every memory was
 * already there (`unchanged`).
 */
export type ImportOutcome = 'success' | 'partial' | 'nothing' | 'unchanged';

export function importOutcome(r: Pick<ImportOutput, 'imported' | 'replaced' | 'skipped' | 'associations' | 'refused' | 'kept_differing'>): ImportOutcome {
	const written = r.imported + r.replaced + r.associations;
	// A memory kept although the file says something else is not "already there": the file's is not.
	const left = r.refused + (r.kept_differing ?? 0);
	if (written === 0) return left === 0 && r.skipped > 0 ? 'unchanged' : 'nothing';
	return left > 0 ? 'partial' : 'success';
}

/** An import's outcome as shown: one cancelled before the end of its file is partial, whatever it wrote. */
export function resultOutcome(r: ImportResult): ImportOutcome {
	return r.cancelled && r.notReached ? 'partial' : importOutcome(r);
}

function summary(r: ImportOutput, cancelled: boolean, total = 0, notReached = 0): string {
	// Cancelled, the count is out of the file's: "Cancelled: 22,000 of 109,806 imported".
	const of = cancelled && notReached ? ` of ${total.toLocaleString()}` : '';
	const parts = [`${r.imported.toLocaleString()}${of} imported`];
	if (r.replaced) parts.push(`${r.replaced.toLocaleString()} replaced`);
	if (r.skipped) parts.push(`${r.skipped.toLocaleString()} already there`);
	if (r.kept_differing)
		parts.push(
			`${r.kept_differing.toLocaleString()} of them different from the file's (the one here kept; choose “Replace it with the file's” to take the file's)`,
		);
	if (r.associations) parts.push(counted(r.associations, 'link', 'links'));
	if (r.refused) parts.push(`${r.refused.toLocaleString()} refused`);
	const outcome = importOutcome(r);
	const lead = cancelled ? 'Cancelled: ' : outcome === 'nothing' ? 'Nothing was imported: ' : outcome === 'partial' ? 'Partly imported: ' : '';
	const rest = notReached
		? `; ${counted(notReached, 'memory was', 'memories were')} not reached (import the file again for ${notReached === 1 ? 'it' : 'them'}: those already here are kept)`
		: '';
	return lead + parts.join(', ') + rest;
}

/** A folder's or zip's notes as a bundle: one memory per note, wiki links as RELATES_TO after all notes. */
export function notesBundle(files: NoteFile[]): Bundle {
	const n = readNotes(files, newMemoryId);
	const b = emptyBundle();
	b.memories = n.memories.map((m) => ({ rec: { kind: 'memory', ...m.record }, line: 0, label: m.path }));
	b.associations = n.links.map((l) => ({ rec: { kind: 'association', ...l.record }, line: 0, label: `${l.path}: link ${l.record.context}` }));
	b.errors = n.errors.map((error) => ({ error }));
	b.notImported = n.notImported.map((text) => ({ text }));
	return b;
}

/** A CSV's rows as a bundle, with the columns the person chose. */
export function csvBundle(table: CsvTable, cols: CsvColumns): Bundle {
	const { records, errors } = csvRecords(table, cols);
	const b = emptyBundle();
	b.memories = records.map((r) => ({ rec: { kind: 'memory', ...r.record }, line: r.line }));
	b.errors = errors;
	return b;
}

/** The files of a zip (directories left out), notes decoded exactly (a note that is not UTF-8 throws a NotTextError naming it). */
export function unzipNotes(bytes: Uint8Array): NoteFile[] {
	const entries = unzipSync(bytes);
	return Object.entries(entries)
		.filter(([path]) => !path.endsWith('/'))
		.map(([path, data]) => ({ path, text: /\.(md|markdown)$/i.test(path) ? textOf(data, path) : '' }));
}

/**
 * The conversations.json of a chat export as ChatGPT and Claude send it (a .zip with the chats, a
 * chat.html and the images), or undefined when the zip holds none that reads as chats. Only that
 * one file is inflated: the images can run to gigabytes. Read as notes before, it imported nothing.
 */
export function chatExportInZip(bytes: Uint8Array): { path: string; text: string } | undefined {
	const entries = unzipSync(bytes, { filter: (f) => /(^|\/)conversations\.json$/i.test(f.name) });
	for (const [path, data] of Object.entries(entries).sort(([a], [b]) => a.length - b.length)) {
		const text = textOf(data, path);
		try {
			if (chatList(JSON.parse(text.replace(/^\uFEFF/, '')) as unknown)) return { path, text };
		} catch {
			// Not JSON: not a chat export; the zip is read as notes.
		}
	}
	return undefined;
}

/** What the export should contain. */
export type ExportChoice = Pick<ExportInput, 'format' | 'scope' | 'tags' | 'include_vectors'>;

/** Reads every page of an export and assembles one file; undefined when cancelled. */
export async function exportAll(
	engine: EngineProxy,
	choice: ExportChoice,
	total: number,
	task: TaskHandle,
	pageSize = EXPORT_PAGE,
): Promise<{ text: string; count: number } | undefined> {
	const format = choice.format ?? 'json';
	const pages: string[] = [];
	let count = 0;
	let links = 0;
	// A seq cursor, not an offset: a memory an agent deletes meanwhile must not shift a page's start.
	for (let after: number | undefined; ;) {
		if (task.cancelled) return undefined;
		const out = await engine.exportMemories({ ...choice, format, after_seq: after, limit: pageSize });
		pages.push(out.data);
		count += out.memory_count;
		links += out.association_count;
		task.progress(count, Math.max(total, count));
		if (!out.has_more || out.next_after_seq === undefined) break;
		after = out.next_after_seq;
	}
	return { text: assemble(format, pages, count, links), count };
}

/**
 * One file from export pages: JSON arrays merged, JSONL headers after the first dropped, Markdown
 * titles after the first dropped (one after a memory's fence made that memory read as notes) and
 * the first one's counts made the file's.
 */
function assemble(format: 'json' | 'jsonl' | 'markdown', pages: string[], count: number, links: number): string {
	if (pages.length === 1) return pages[0];
	if (format === 'markdown') {
		const [first, ...rest] = pages.map(markdownHeader);
		const head = first.head.replace(/ · \d+ memories · \d+ links$/, ` · ${count} memories · ${links} links`);
		// A page ends its last memory with a line break, and its body starts with the blank line after its header.
		return [head + first.body, ...rest.map((p) => p.body.slice(1))].join('');
	}
	if (format === 'jsonl') return pages.map((p, i) => (i === 0 ? p : p.split('\n').slice(1).join('\n'))).join('');
	const docs = pages.map((p) => JSON.parse(p) as Rec);
	const merged: Rec = { ...docs[0] };
	for (const key of ['memories', 'associations', 'vectors']) if (Array.isArray(docs[0][key])) merged[key] = docs.flatMap((d) => (d[key] as Rec[]) ?? []);
	const entities = new Map<string, Rec>();
	for (const d of docs) for (const e of (d.entities as Rec[]) ?? []) entities.set(String(e.id), e);
	merged.entities = [...entities.values()];
	return JSON.stringify(merged, null, 1);
}

/** A Markdown export page's title and "Exported …" line (through the blank line after it), and the rest. */
function markdownHeader(page: string): { head: string; body: string } {
	const m = /^# Engram memories\n\nExported [^\n]*/.exec(page);
	if (!m) return { head: '', body: page };
	return { head: m[0], body: page.slice(m[0].length) };
}

/** Offers text as a file download. */
export function download(text: string, filename: string, type: string): void {
	const url = URL.createObjectURL(new Blob([text], { type }));
	const a = document.createElement('a');
	a.href = url;
	a.download = filename;
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
