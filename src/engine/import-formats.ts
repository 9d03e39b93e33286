/**
 * Reading import data: format detection (by content: the whole text as one JSON document, else one
 * JSON record per line, else Markdown), parsing of Engram JSON / JSONL / Markdown, of plain records
 * (content plus any known memory field, no `kind`), of mem0's export and of the official
 * server-memory JSONL knowledge graph, and per-record validation. Bad records become errors with
 * their line numbers; text that is not a record (a Markdown rule, an empty heading) is listed as not
 * imported, with why; the rest is imported.
 */
import { z } from 'zod';
import {
	AssociationFieldsShape,
	AssociationTypeSchema,
	EntityRefSchema,
	IsoDateSchema,
	LIMITS,
	MemoryIdSchema,
	MEMORY_TYPES,
	MemoryTypeSchema,
	MetadataSchema,
	StoreItemShape,
	TagsSchema,
	UnitSchema,
} from '../core/schemas';
import { withoutBom } from '../core/text';
import { inspect } from '../core/well-formed';
import { parseMarkdown } from './markdown-format';
import { mem0List, mem0Memory } from './import-mem0';
import { chatList, chatNotImported, chatRecords } from './import-chats';
import { readCsvDate, splitTags } from './import-csv';
import { describeIssue, formatPath, valueAt } from './validate';

/** A memory type written in another letter case, in Engram's own; anything else as it is (the schema says why it is refused). */
function canonicalType(v: unknown): unknown {
	if (typeof v !== 'string' || (MEMORY_TYPES as readonly string[]).includes(v)) return v;
	return MEMORY_TYPES.find((t) => t.toLowerCase() === v.trim().toLowerCase()) ?? v;
}

/** An Engram memory record as import accepts it (everything but content is optional). */
export const ImportedMemorySchema = z.object({
	id: MemoryIdSchema.optional(),
	seq: z.number().int().positive().optional(),
	content: StoreItemShape.content,
	summary: z.string().max(LIMITS.summaryChars).optional(),
	/** A type in any letter case ("decision", as other tools write it, is Decision). */
	type: z.preprocess(canonicalType, MemoryTypeSchema.optional()),
	/** A list, or one string split on `,` `;` or `|` as in CSV (other tools export "a, b"). */
	tags: z.preprocess((v) => (typeof v === 'string' ? splitTags(v) : v), TagsSchema.optional()),
	source: z.string().max(200).optional(),
	scope: z.string().min(1).max(200).optional(),
	importance: UnitSchema.optional(),
	confidence: UnitSchema.optional(),
	metadata: MetadataSchema.optional(),
	entities: z.array(EntityRefSchema).max(LIMITS.entities).optional(),
	entities_given: z.boolean().optional(),
	/** ISO 8601, or a date other tools write that reads one way only ("7 Dec 2024", "2024-12-07 10:00", Unix time). */
	timestamp: z.preprocess(otherDate, IsoDateSchema.optional()),
	updated_at: IsoDateSchema.optional(),
	last_accessed: IsoDateSchema.optional(),
	access_count: z.number().int().min(0).optional(),
	t_valid: IsoDateSchema.optional(),
	t_invalid: IsoDateSchema.optional(),
	/** A conversation turn's context as exported (MemoryRow.context); recomputed when absent. */
	context: z.string().max(1000).optional(),
});
export type ImportedMemory = z.infer<typeof ImportedMemorySchema>;

/**
 * A record's date as ISO 8601 when it is written as a CSV date cell may be (readCsvDate) and reads
 * one way only: Unix time (seconds or milliseconds, as a number or digits), "7 Dec 2024",
 * "2024-12-07 10:00", 07.12.2024, 12/31/2024. Anything else, 12/07/2024 (which month?) among it,
 * is left for IsoDateSchema to refuse, naming the field.
 */
function otherDate(v: unknown): unknown {
	const text = typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : v;
	if (typeof text !== 'string' || IsoDateSchema.safeParse(text).success) return v;
	const read = readCsvDate(text, undefined);
	return 'ok' in read ? read.ok : v;
}

/** An association record (system types allowed: they are Engram's own, exported earlier). */
export const ImportedAssociationSchema = z.object({
	from: MemoryIdSchema,
	to: MemoryIdSchema,
	type: AssociationTypeSchema,
	strength: UnitSchema,
	...AssociationFieldsShape,
	created_at: IsoDateSchema.optional(),
	updated_at: IsoDateSchema.optional(),
});
export type ImportedAssociation = z.infer<typeof ImportedAssociationSchema>;

export const ImportedEntitySchema = z.object({
	id: z.string().min(1),
	name: z.string().min(1).max(LIMITS.entityNameChars),
	type: z.string().min(1).max(50),
	aliases: z.array(z.string()).optional(),
	first_seen: IsoDateSchema.optional(),
	last_seen: IsoDateSchema.optional(),
});
export type ImportedEntity = z.infer<typeof ImportedEntitySchema>;

export const ImportedVectorSchema = z.object({
	model: z.string().min(1).max(200),
	memory_id: MemoryIdSchema,
	vector: z.array(z.number()).min(1).max(LIMITS.embeddingDims),
});
export type ImportedVector = z.infer<typeof ImportedVectorSchema>;

/** server-memory's two line kinds. */
const GraphEntitySchema = z.object({
	type: z.literal('entity'),
	name: z.string().min(1).max(LIMITS.entityNameChars),
	entityType: z.string().min(1).max(50),
	// Each becomes a memory: one over a memory's size is refused with its line, not the whole import.
	observations: z.array(z.string().max(LIMITS.contentChars)).max(10_000),
});
const GraphRelationSchema = z.object({
	type: z.literal('relation'),
	from: z.string().min(1),
	to: z.string().min(1),
	relationType: z.string().min(1).max(2000),
});

/** One refused record: its 1-based line (when it has one) and why. */
export interface ImportError {
	line?: number;
	error: string;
}

/** Characters kept of one error's text (a bad record's value can be megabytes). */
const ERROR_CHARS = 300;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The errors of one import: every error is counted, and the first `SHOWN` in file order are kept
 * (memory stays bounded however many lines are bad). Texts are cut to 300 characters and made
 * well-formed (a lone surrogate from the file becomes U+FFFD).
 */
export class ImportErrors {
	static readonly SHOWN = 50;
	#kept: ImportError[] = [];
	#count = 0;

	/** Records one refused record. */
	add(line: number | undefined, error: string): void {
		this.#count++;
		const text = (error.length > ERROR_CHARS ? `${error.slice(0, ERROR_CHARS - 1)}…` : error).replace(LONE_SURROGATE, '\uFFFD');
		this.#kept.push(line === undefined ? { error: text } : { line, error: text });
		// Errors arrive in line order within each pass, but passes interleave: trim now and then.
		if (this.#kept.length >= 4 * ImportErrors.SHOWN) this.#trim();
	}

	/** How many records were refused. */
	get count(): number {
		return this.#count;
	}

	/** The first errors in file order (those without a line last); past `SHOWN`, the last entry says how many more. */
	list(): ImportError[] {
		this.#trim();
		const shown = this.#kept.slice(0, ImportErrors.SHOWN);
		if (this.#count > ImportErrors.SHOWN) shown[ImportErrors.SHOWN - 1] = { error: moreErrors(this.#count - ImportErrors.SHOWN + 1) };
		return shown;
	}

	#trim(): void {
		this.#kept.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
		this.#kept.length = Math.min(this.#kept.length, ImportErrors.SHOWN);
	}
}

/** A part of the file that is not imported (not a record, or a link with no target), and why. */
export interface NotImported {
	line?: number;
	text: string;
}

/**
 * What was left out of an import (capped like errors, first `SHOWN` in file order). Not refused
 * records: text that is not a memory, said so instead of dropped without a word.
 */
export class NotImportedList {
	#list = new ImportErrors();

	add(line: number | undefined, text: string): void {
		this.#list.add(line, text);
	}

	get count(): number {
		return this.#list.count;
	}

	list(): NotImported[] {
		return this.#list.list().map(({ line, error }, i, all) => {
			const more = i === all.length - 1 && this.count > all.length;
			const text = more ? `… and ${this.count - all.length + 1} more` : error;
			return line === undefined ? { text } : { line, text };
		});
	}
}

/** The last entry of a capped error list. */
export function moreErrors(n: number): string {
	return `… and ${n} more errors`;
}

/** A record with where it came from (1-based line; for single-document JSON, 1). */
export interface Located<T> {
	line: number;
	value: T;
	/**
	 * For a memory record without an id: what its id is made of besides its content, as the file
	 * said it ([scope, tags, timestamp, type, mem0 id]; see import-ids.ts).
	 */
	idParts?: unknown[];
}

/** Everything parsed from Engram data. */
export interface EngramBundle {
	kind: 'engram';
	memories: Located<ImportedMemory>[];
	associations: Located<ImportedAssociation>[];
	entities: Located<ImportedEntity>[];
	vectors: Located<ImportedVector>[];
	errors: ImportErrors;
	notImported: NotImportedList;
}

/** Everything parsed from a server-memory knowledge graph. */
export interface GraphBundle {
	kind: 'graph';
	entities: Located<z.infer<typeof GraphEntitySchema>>[];
	relations: Located<z.infer<typeof GraphRelationSchema>>[];
	errors: ImportErrors;
}

export type ImportFormat = 'json' | 'jsonl' | 'markdown' | 'server-memory-jsonl' | 'mem0-json' | 'chat-json';

/** The message for a file with nothing in it (checked before any format guess). */
export const EMPTY_FILE = 'The file is empty: there is nothing to import.';

/** Whether `data` is empty or only whitespace. */
export function isBlank(data: string): boolean {
	return data.trim() === '';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Detects the format of `data` by its content: the whole text as one JSON document (Engram JSON,
 * an array or `{memories}` of plain records, mem0's export, or one record), else one JSON object
 * per line (server-memory's graph when its first line is an entity or relation, else JSONL
 * records), else Markdown. A text that starts like JSON but is neither is read as JSONL when its
 * first line is an object, else as a JSON document (whose error says where it breaks).
 */
export function detectFormat(data: string): ImportFormat {
	const t = data.trim();
	if (!t.startsWith('{') && !t.startsWith('[')) return 'markdown';
	const E = Error as { stackTraceLimit?: number };
	const limit = E.stackTraceLimit;
	E.stackTraceLimit = 0;
	try {
		let doc: unknown;
		try {
			doc = JSON.parse(t);
		} catch {
			const nl = t.indexOf('\n');
			try {
				doc = JSON.parse(nl < 0 ? t : t.slice(0, nl));
			} catch {
				return 'json';
			}
			if (!isObject(doc)) return 'json';
			return doc.type === 'entity' || doc.type === 'relation' ? 'server-memory-jsonl' : 'jsonl';
		}
		if (mem0List(doc)) return 'mem0-json';
		if (chatList(doc)) return 'chat-json';
		// One line holding one record is a JSONL file of one line.
		if (isObject(doc) && !Array.isArray(doc.memories)) {
			if (doc.type === 'entity' || doc.type === 'relation') return 'server-memory-jsonl';
			if (typeof doc.kind === 'string' || typeof doc.content === 'string') return 'jsonl';
		}
		return 'json';
	} finally {
		E.stackTraceLimit = limit;
	}
}

/** Validates `value` with `schema`; on failure returns the error text naming field and rule. */
function check<T>(schema: z.ZodType<T>, value: unknown, what: string): { ok: T } | { error: string } {
	// A JSON "\ud800" escape makes a lone surrogate: refuse it in any string or key of the record.
	const [bad] = inspect(value);
	if (bad) return { error: `${what}.${formatPath(bad.path)}: ${bad.message}` };
	let r: ReturnType<typeof schema.safeParse>;
	try {
		r = schema.safeParse(value);
	} catch (e) {
		// A check that serialises the value (metadata's size) overflows the stack on deep nesting.
		return { error: `${what}: could not be checked (${(e as Error).message})` };
	}
	if (r.success) return { ok: r.data };
	const issue = r.error.issues[0] as unknown as Parameters<typeof describeIssue>[0];
	return { error: `${what}.${formatPath(issue.path)}: ${describeIssue(issue, valueAt(value, issue.path))}` };
}

function emptyBundle(): EngramBundle {
	return { kind: 'engram', memories: [], associations: [], entities: [], vectors: [], errors: new ImportErrors(), notImported: new NotImportedList() };
}

/** Nesting the import lets through (deeper values overflow the stack in storage's structured clone). */
const MAX_DEPTH = 64;

/** Whether `v` nests deeper than `max` (iterative: no stack to overflow). */
function deeperThan(v: unknown, max: number): boolean {
	const stack: [unknown, number][] = [[v, 0]];
	while (stack.length) {
		const [x, d] = stack.pop()!;
		if (typeof x !== 'object' || x === null) continue;
		if (d >= max) return true;
		for (const c of Object.values(x)) stack.push([c, d + 1]);
	}
	return false;
}

/** Sorts one record into the bundle by kind, or records why it was refused. */
function addRecord(b: EngramBundle, kind: unknown, rec: unknown, line: number): void {
	const put = <T>(list: Located<T>[], schema: z.ZodType<T>, what: string, idParts?: unknown[]) => {
		if (deeperThan(rec, MAX_DEPTH + 1)) return b.errors.add(line, `${what}: nested deeper than ${MAX_DEPTH} levels`);
		const r = check(schema, rec, what);
		if ('ok' in r) list.push(idParts ? { line, value: r.ok, idParts } : { line, value: r.ok });
		else b.errors.add(line, r.error);
	};
	if (kind === 'memory' && isObject(rec) && !('content' in rec)) b.errors.add(line, missingContent(rec));
	else if (kind === 'memory') {
		const parts = idPartsOf(rec);
		rec = withOtherFields(rec);
		put(b.memories, ImportedMemorySchema, 'memory', parts);
	} else if (kind === 'association') {
		// A link has no place for other fields (no metadata): it is imported, and they are listed as left out.
		const other = isObject(rec) ? Object.keys(rec).filter((k) => !Object.hasOwn(ImportedAssociationSchema.shape, k)) : [];
		const before = b.associations.length;
		put(b.associations, ImportedAssociationSchema, 'association');
		if (other.length && b.associations.length > before)
			b.notImported.add(line, `association: ${other.map((k) => JSON.stringify(k.slice(0, 60))).join(', ')} not imported (a link has no such field)`);
	} else if (kind === 'entity') put(b.entities, ImportedEntitySchema, 'entity');
	else if (kind === 'vector') put(b.vectors, ImportedVectorSchema, 'vector');
	else if (kind === undefined) b.errors.add(line, missingContent(rec));
	else if (kind !== 'header')
		b.errors.add(line, `kind: must be one of header, memory, entity, association, vector (got ${JSON.stringify(kind)?.slice(0, 100)})`);
}

/** Keys of a memory record that are Engram's own but not imported (a read's derived list of models). */
const READ_ONLY_KEYS = new Set(['embedding_tables']);

/**
 * A memory record with the fields Engram has no place for (another tool's "author", "created",
 * "priority"; a newer export's additions) moved into `metadata.other_fields`, instead of being
 * dropped without a word by the schema. A record whose metadata is not an object is left as it
 * is: the schema refuses that, naming it.
 */
function withOtherFields(rec: unknown): unknown {
	if (!isObject(rec)) return rec;
	const other = Object.keys(rec).filter((k) => !Object.hasOwn(ImportedMemorySchema.shape, k) && !READ_ONLY_KEYS.has(k));
	if (other.length === 0 || (rec.metadata !== undefined && !isObject(rec.metadata))) return rec;
	// fromEntries, not assignment: a "__proto__" key stays a key (for the metadata rule to refuse by name).
	const entries = Object.entries(rec);
	const kept = Object.fromEntries(entries.filter(([k]) => other.includes(k)));
	const out: Record<string, unknown> = Object.fromEntries(entries.filter(([k]) => !other.includes(k) && !READ_ONLY_KEYS.has(k)));
	const metadata = (rec.metadata ?? {}) as Record<string, unknown>;
	const before = isObject(metadata.other_fields) ? metadata.other_fields : {};
	out.metadata = { ...metadata, other_fields: { ...before, ...kept } };
	return out;
}

/** What a memory record without an id has its id made of, read before validation (as the Import screen reads it). */
function idPartsOf(rec: unknown): unknown[] | undefined {
	if (!isObject(rec) || rec.id !== undefined) return undefined;
	const mem0 = isObject(rec.metadata) && isObject(rec.metadata.mem0) ? rec.metadata.mem0.id : undefined;
	return [rec.scope, rec.tags ?? [], rec.timestamp ?? '', rec.type ?? '', mem0 ?? ''];
}

/** Keys other tools use for a memory's text: the refusal says to rename them. */
const TEXT_KEYS = ['text', 'memory', 'body', 'note', 'fact', 'observation', 'message', 'value'];

/**
 * Why a record without `content` is refused, naming the keys it has and, for files people often
 * try (chat exports), what the file looks like.
 */
function missingContent(rec: unknown): string {
	const head = 'content: missing; a memory record needs its text in "content"';
	if (!isObject(rec)) return head;
	const keys = Object.keys(rec);
	if ('mapping' in rec && 'title' in rec)
		return `${head}. This looks like a ChatGPT conversations export (title, mapping): Engram imports memories, not chat transcripts`;
	if ('chat_messages' in rec) return `${head}. This looks like a Claude conversations export (chat_messages): Engram imports memories, not chat transcripts`;
	const alias = TEXT_KEYS.find((k) => typeof rec[k] === 'string');
	if (alias) return `${head}; rename "${alias}" to "content"`;
	const shown = keys.slice(0, 6).map((k) => JSON.stringify(k.slice(0, 40)));
	return `${head} (this record has ${keys.length ? shown.join(', ') + (keys.length > 6 ? ', …' : '') : 'no fields'})`;
}

/** A record's kind: its `kind`, or "memory" for a plain record with content (and no kind). */
function kindOf(rec: unknown): unknown {
	if (!isObject(rec)) return 'memory';
	return rec.kind ?? ('content' in rec ? 'memory' : undefined);
}

/** A record without its `kind` (the schemas would drop it anyway; an object only). */
function withoutKind(rec: unknown): unknown {
	if (!isObject(rec) || !('kind' in rec)) return rec;
	const { kind: _kind, ...rest } = rec;
	return rest;
}

/**
 * Parses a JSON document: Engram's `{ version, memories, associations, entities, vectors? }`, a
 * `{ memories: [...] }` or bare array of plain records (content plus any known memory field), or
 * mem0's export. For a document, "line" is the record's position in its list.
 */
export function parseJson(data: string): EngramBundle {
	const b = emptyBundle();
	let doc: unknown;
	try {
		doc = JSON.parse(withoutBom(data)) as unknown;
	} catch (e) {
		const at = jsonSyntax(e, withoutBom(data));
		b.errors.add(at.line, `data: not valid JSON: ${at.rule}`);
		return b;
	}
	const mem0 = mem0List(doc);
	if (mem0) {
		mem0.list.forEach((r, i) => {
			const m = mem0Memory(r);
			if ('error' in m) b.errors.add(i + 1, m.error);
			else addRecord(b, 'memory', m.record, i + 1);
		});
		return b;
	}
	const chats = chatList(doc);
	if (chats) {
		const read = chatRecords(chats.source, chats.list);
		read.errors.forEach(({ conversation, error }) => b.errors.add(conversation, error));
		read.records.forEach(({ conversation, record }) => addRecord(b, 'memory', record, conversation));
		read.links.forEach(({ conversation, record }) => addRecord(b, 'association', record, conversation));
		for (const line of chatNotImported(read)) b.notImported.add(undefined, line);
		return b;
	}
	if (Array.isArray(doc)) {
		doc.forEach((r, i) => addRecord(b, kindOf(r), withoutKind(r), i + 1));
		return b;
	}
	const d = isObject(doc) ? doc : {};
	const list = (k: string) => (Array.isArray(d[k]) ? (d[k] as unknown[]) : []);
	if (!Array.isArray(d.memories)) {
		// Say what the file holds and what Engram reads, so the person can reshape it.
		const keys = Object.keys(d).slice(0, 5);
		const has = isObject(doc)
			? keys.length
				? `its top level has ${keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`
				: 'it is an empty object'
			: `it is ${doc === null ? 'null' : `a ${typeof doc}`}`;
		b.errors.add(
			undefined,
			`memories: must be an array; this file is not an Engram export (${has}). Engram reads a list of records with a "content" field, [{"content": "…"}], or {"memories": [...]}`,
		);
	}
	list('memories').forEach((m, i) => addRecord(b, 'memory', withoutKind(m), i + 1));
	list('associations').forEach((a, i) => addRecord(b, 'association', withoutKind(a), i + 1));
	list('entities').forEach((e, i) => addRecord(b, 'entity', e, i + 1));
	list('vectors').forEach((v, i) => addRecord(b, 'vector', v, i + 1));
	return b;
}

/**
 * A JSON syntax error in the person's terms: the line of `text` it is on and the rule broken
 * with its column, e.g. `expected double-quoted property name (column 21)`. V8's message counts
 * lines and columns inside the text it was given ("line 1 column 21" for line 2 of a JSONL
 * file), so its own line and column are dropped and counted again here from the position.
 */
export function jsonSyntax(e: unknown, text: string, columnOffset = 0): { line: number; rule: string } {
	const msg = e instanceof Error ? e.message : String(e);
	const pos = /at position (\d+)/.exec(msg);
	let rule = msg.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
	rule = rule.charAt(0).toLowerCase() + rule.slice(1);
	if (!pos) return { line: /end of JSON/.test(msg) ? text.trimEnd().split('\n').length : 1, rule };
	const p = Number(pos[1]);
	const before = text.slice(0, p);
	const line = before.split('\n').length;
	const column = p - (before.lastIndexOf('\n') + 1) + 1 + (line === 1 ? columnOffset : 0);
	return { line, rule: `${rule} (column ${column})` };
}

/** Splits text into non-blank lines with their 1-based numbers, parsing each as JSON. */
function jsonLines(data: string, errors: ImportErrors): { line: number; rec: Record<string, unknown> }[] {
	const out: { line: number; rec: Record<string, unknown> }[] = [];
	// A thrown parse error costs V8 ~30 µs, half of it the stack: a file of a million bad lines took
	// 30 s. Lines that can't be an object are refused without parsing, and no stacks are captured.
	const E = Error as { stackTraceLimit?: number };
	const stackLimit = E.stackTraceLimit;
	E.stackTraceLimit = 0;
	try {
		data.split(/\r?\n/).forEach((text, i) => {
			const t = text.trim();
			if (t === '') return;
			if (!t.startsWith('{') || !t.endsWith('}')) return errors.add(i + 1, 'not a JSON object (it must start with { and end with })');
			let rec: unknown;
			try {
				rec = JSON.parse(t) as unknown;
			} catch (e) {
				// The parser counts from the trimmed line; the person counts from the line's start.
				const at = jsonSyntax(e, t, text.length - text.trimStart().length);
				return errors.add(i + 1, `not valid JSON: ${at.rule}`);
			}
			if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return errors.add(i + 1, 'not a JSON object');
			out.push({ line: i + 1, rec: rec as Record<string, unknown> });
		});
	} finally {
		E.stackTraceLimit = stackLimit;
	}
	return out;
}

/** Parses JSONL: one record per line, its `kind` saying what it is (none: a memory with content). */
export function parseJsonl(data: string): EngramBundle {
	const b = emptyBundle();
	for (const { line, rec } of jsonLines(data, b.errors)) addRecord(b, kindOf(rec), withoutKind(rec), line);
	return b;
}

/** Parses Markdown (an Engram export, or any notes file). */
export function parseMarkdownBundle(data: string): EngramBundle {
	const b = emptyBundle();
	const md = parseMarkdown(withoutBom(data));
	md.errors.forEach(({ line, error }) => b.errors.add(line, error));
	md.skipped?.forEach(({ line, text }) => b.notImported.add(line, text));
	md.memories.forEach(({ line, record }) => addRecord(b, 'memory', record, line));
	md.associations.forEach(({ line, record }) => addRecord(b, 'association', record, line));
	return b;
}

/** Parses server-memory's JSONL: entity and relation lines. */
export function parseGraphJsonl(data: string): GraphBundle {
	const b: GraphBundle = { kind: 'graph', entities: [], relations: [], errors: new ImportErrors() };
	for (const { line, rec } of jsonLines(data, b.errors)) {
		if (rec.type === 'entity') {
			const r = check(GraphEntitySchema, rec, 'entity');
			if ('ok' in r) b.entities.push({ line, value: r.ok });
			else b.errors.add(line, r.error);
		} else if (rec.type === 'relation') {
			const r = check(GraphRelationSchema, rec, 'relation');
			if ('ok' in r) b.relations.push({ line, value: r.ok });
			else b.errors.add(line, r.error);
		} else b.errors.add(line, `type: must be "entity" or "relation" (got ${JSON.stringify(rec.type)?.slice(0, 100)})`);
	}
	return b;
}
