/**
 * Reading import data: format detection, parsing of Engram JSON / JSONL / Markdown and of the
 * official server-memory JSONL knowledge graph, and per-record validation. Bad records become
 * errors with their line numbers; the rest is imported.
 */
import { z } from 'zod';
import {
	AssociationFieldsShape,
	AssociationTypeSchema,
	EntityRefSchema,
	IsoDateSchema,
	LIMITS,
	MemoryIdSchema,
	MemoryTypeSchema,
	MetadataSchema,
	StoreItemShape,
	TagsSchema,
	UnitSchema,
} from '../core/schemas';
import { inspect } from '../core/well-formed';
import { parseMarkdown } from './markdown-format';
import { describeIssue, formatPath } from './validate';

/** An Engram memory record as import accepts it (everything but content is optional). */
export const ImportedMemorySchema = z.object({
	id: MemoryIdSchema.optional(),
	seq: z.number().int().positive().optional(),
	content: StoreItemShape.content,
	summary: z.string().max(LIMITS.summaryChars).optional(),
	type: MemoryTypeSchema.optional(),
	tags: TagsSchema.optional(),
	source: z.string().max(200).optional(),
	scope: z.string().min(1).max(200).optional(),
	importance: UnitSchema.optional(),
	confidence: UnitSchema.optional(),
	metadata: MetadataSchema.optional(),
	entities: z.array(EntityRefSchema).max(LIMITS.entities).optional(),
	entities_given: z.boolean().optional(),
	timestamp: IsoDateSchema.optional(),
	updated_at: IsoDateSchema.optional(),
	last_accessed: IsoDateSchema.optional(),
	access_count: z.number().int().min(0).optional(),
	t_valid: IsoDateSchema.optional(),
	t_invalid: IsoDateSchema.optional(),
	/** A conversation turn's context as exported (MemoryRow.context); recomputed when absent. */
	context: z.string().max(1000).optional(),
});
export type ImportedMemory = z.infer<typeof ImportedMemorySchema>;

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
	observations: z.array(z.string()).max(10_000),
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

/** The last entry of a capped error list. */
export function moreErrors(n: number): string {
	return `… and ${n} more errors`;
}

/** A record with where it came from (1-based line; for single-document JSON, 1). */
export interface Located<T> {
	line: number;
	value: T;
}

/** Everything parsed from Engram data. */
export interface EngramBundle {
	kind: 'engram';
	memories: Located<ImportedMemory>[];
	associations: Located<ImportedAssociation>[];
	entities: Located<ImportedEntity>[];
	vectors: Located<ImportedVector>[];
	errors: ImportErrors;
}

/** Everything parsed from a server-memory knowledge graph. */
export interface GraphBundle {
	kind: 'graph';
	entities: Located<z.infer<typeof GraphEntitySchema>>[];
	relations: Located<z.infer<typeof GraphRelationSchema>>[];
	errors: ImportErrors;
}

export type ImportFormat = 'json' | 'jsonl' | 'markdown' | 'server-memory-jsonl';

/** Detects the format of `data` from its first record. */
export function detectFormat(data: string): ImportFormat {
	const t = data.trimStart();
	const firstLine = t.split('\n', 1)[0].trim();
	if (t.startsWith('{')) {
		try {
			const first = JSON.parse(firstLine) as Record<string, unknown>;
			if (first.type === 'entity' || first.type === 'relation') return 'server-memory-jsonl';
			if (typeof first.kind === 'string') return 'jsonl';
		} catch {
			// Not one record per line: a single JSON document.
		}
		return 'json';
	}
	return 'markdown';
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
	return { error: `${what}.${formatPath(issue.path)}: ${describeIssue(issue, undefined)}` };
}

function emptyBundle(): EngramBundle {
	return { kind: 'engram', memories: [], associations: [], entities: [], vectors: [], errors: new ImportErrors() };
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
	const put = <T>(list: Located<T>[], schema: z.ZodType<T>, what: string) => {
		if (deeperThan(rec, MAX_DEPTH + 1)) return b.errors.add(line, `${what}: nested deeper than ${MAX_DEPTH} levels`);
		const r = check(schema, rec, what);
		if ('ok' in r) list.push({ line, value: r.ok });
		else b.errors.add(line, r.error);
	};
	if (kind === 'memory') put(b.memories, ImportedMemorySchema, 'memory');
	else if (kind === 'association') put(b.associations, ImportedAssociationSchema, 'association');
	else if (kind === 'entity') put(b.entities, ImportedEntitySchema, 'entity');
	else if (kind === 'vector') put(b.vectors, ImportedVectorSchema, 'vector');
	else if (kind !== 'header') b.errors.add(line, `kind: must be one of header, memory, entity, association, vector (got ${JSON.stringify(kind)?.slice(0, 100)})`);
}

/** Parses an Engram JSON document `{ version, memories, associations, entities, vectors? }`. */
export function parseJson(data: string): EngramBundle {
	const b = emptyBundle();
	let doc: Record<string, unknown>;
	try {
		doc = JSON.parse(data) as Record<string, unknown>;
	} catch (e) {
		b.errors.add(1, `data: not valid JSON (${(e as Error).message})`);
		return b;
	}
	const list = (k: string) => (Array.isArray(doc?.[k]) ? (doc[k] as unknown[]) : []);
	if (!Array.isArray(doc?.memories)) b.errors.add(undefined, 'memories: must be an array (is this an Engram JSON export?)');
	list('memories').forEach((m, i) => addRecord(b, 'memory', m, i + 1));
	list('associations').forEach((a, i) => addRecord(b, 'association', a, i + 1));
	list('entities').forEach((e, i) => addRecord(b, 'entity', e, i + 1));
	list('vectors').forEach((v, i) => addRecord(b, 'vector', v, i + 1));
	// For a single document "line" is the record's position in its list.
	return b;
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
			try {
				const rec = JSON.parse(t) as unknown;
				if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) throw new Error('not an object');
				out.push({ line: i + 1, rec: rec as Record<string, unknown> });
			} catch (e) {
				errors.add(i + 1, `not a JSON object (${(e as Error).message})`);
			}
		});
	} finally {
		E.stackTraceLimit = stackLimit;
	}
	return out;
}

/** Parses Engram JSONL: one record per line, its `kind` saying what it is. */
export function parseJsonl(data: string): EngramBundle {
	const b = emptyBundle();
	for (const { line, rec } of jsonLines(data, b.errors)) {
		const { kind, ...rest } = rec;
		addRecord(b, kind, rest, line);
	}
	return b;
}

/** Parses Markdown (an Engram export, or any notes file). */
export function parseMarkdownBundle(data: string): EngramBundle {
	const b = emptyBundle();
	const md = parseMarkdown(data);
	md.errors.forEach(({ line, error }) => b.errors.add(line, error));
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
