/**
 * The building blocks every other schema uses: memory and association types, importance, LIMITS,
 * the well-formed-string rule, dates, ids, tags, entity references, metadata and embeddings.
 */
import { z } from 'zod';
import { dateMs } from '../time/calendar';
import { illFormedRule, inspect, loneSurrogateAt } from '../well-formed';

/** Memory types: AutoMem's seven plus codomyrmex's three and `knowledge`. */
export const MEMORY_TYPES = [
	'Decision',
	'Pattern',
	'Preference',
	'Style',
	'Habit',
	'Insight',
	'Context',
	'episodic',
	'semantic',
	'procedural',
	'knowledge',
] as const;
export const MemoryTypeSchema = z.enum(MEMORY_TYPES).describe('Memory type');
export type MemoryType = z.infer<typeof MemoryTypeSchema>;

/** Association types an agent or person may create (seed 000). */
export const AUTHORABLE_ASSOCIATION_TYPES = [
	'RELATES_TO',
	'LEADS_TO',
	'OCCURRED_BEFORE',
	'PREFERS_OVER',
	'EXEMPLIFIES',
	'CONTRADICTS',
	'REINFORCES',
	'INVALIDATED_BY',
	'EVOLVED_INTO',
	'DERIVED_FROM',
	'PART_OF',
] as const;
/** Association types Engram creates itself; readable, never authorable. */
export const SYSTEM_ASSOCIATION_TYPES = ['SIMILAR_TO', 'PRECEDED_BY', 'EXPLAINS', 'SHARES_THEME', 'PARALLEL_CONTEXT', 'DISCOVERED'] as const;
export const AuthorableAssociationTypeSchema = z.enum(AUTHORABLE_ASSOCIATION_TYPES).describe('Relationship type');
export const AssociationTypeSchema = z.enum([...AUTHORABLE_ASSOCIATION_TYPES, ...SYSTEM_ASSOCIATION_TYPES]);
export type AuthorableAssociationType = z.infer<typeof AuthorableAssociationTypeSchema>;
export type AssociationType = z.infer<typeof AssociationTypeSchema>;

/** Named importance levels (codomyrmex) and the 0–1 value each maps to. */
export const IMPORTANCE_LEVELS = { LOW: 0.25, MEDIUM: 0.5, HIGH: 0.75, CRITICAL: 1 } as const;
export type ImportanceLevel = keyof typeof IMPORTANCE_LEVELS;

/** Hard limits; every one is enforced by a schema below and named in its error. */
export const LIMITS = {
	contentChars: 50_000,
	summaryChars: 500,
	batch: 500,
	tags: 64,
	tagChars: 100,
	entities: 100,
	entityNameChars: 200,
	idChars: 200,
	queryChars: 2_000,
	queries: 10,
	embeddingDims: 4_096,
	metadataBytes: 32_768,
	metadataDepth: 20,
	recallLimit: 200,
	importChars: 20_000_000,
} as const;

/** Whether `s` has a character other than whitespace (the rule of a required text field). */
export const nonBlank = (s: string) => s.trim().length > 0;

/** For `.min(1, BLANK)` before `.refine(nonBlank, …)`: an empty string gets one issue, not two. */
export const BLANK = { message: 'must not be blank', abort: true } as const;

/**
 * A string made of well-formed UTF-16: a lone surrogate is refused with its position. Every
 * string an agent or an import hands in goes through this rule (here per field, and through
 * `wellFormedInput` for whole inputs), so no stored text can make `encodeURIComponent` or a
 * TextEncoder-based consumer throw later.
 */
export const WellFormedStringSchema = z.string().superRefine((s, ctx) => {
	const at = loneSurrogateAt(s);
	// `continue: false` ends the checks above it too, so the whole-input walk does not say it twice.
	if (at >= 0) ctx.addIssue({ code: 'custom', message: illFormedRule(at), continue: false });
});

/**
 * A `superRefine` for inputs with `start` and `end`: an end before the start is refused, naming
 * `end`, instead of silently matching nothing.
 */
export function startBeforeEnd(v: { start?: string; end?: string }, ctx: z.RefinementCtx): void {
	if (v.start === undefined || v.end === undefined) return;
	if (dateMs(v.end) < dateMs(v.start)) ctx.addIssue({ code: 'custom', path: ['end'], message: `must not be before start (start ${v.start}, end ${v.end})` });
}

/**
 * Adds the whole-input rule to an input schema: every string and key at any depth must be
 * well-formed, each issue naming its path and position. The walk is iterative (core/well-formed),
 * so a deep value cannot overflow it. Marks the schema so server.ts does not add it twice.
 */
export function wellFormedInput<S extends z.ZodType>(schema: S, skipKeys: ReadonlySet<string> = REF_KEYS): S {
	const checked = schema.superRefine((v, ctx) => {
		for (const i of inspect(v, { maxIssues: 10, skipKeys })) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
	}) as unknown as S;
	WELL_FORMED_CHECKED.add(checked);
	return checked;
}
/**
 * Fields that name a stored memory rather than hand in text to keep. They are looked up, never
 * stored anew, so they are exempt: a row an older version stored with an ill-formed id must
 * still be readable and deletable by that id.
 */
const REF_KEYS: ReadonlySet<string> = new Set([
	'memory_id',
	'memory_ids',
	'memory1_id',
	'memory2_id',
	'supersedes_memory_id',
	'anchor_event_id',
	'priority_ids',
	'event_id',
	'prev_event_id',
]);
/** Schemas already carrying the whole-input rule (server.ts adds it to every other tool). */
export const WELL_FORMED_CHECKED = new WeakSet<z.ZodType>();

const ISO_DATE = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** The rule a date string breaks, or undefined when it is an ISO 8601 date or date-time. */
function isoDateProblem(s: string): string | undefined {
	const m = ISO_DATE.exec(s);
	const rule = 'must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09:30:00Z';
	if (!m) return rule;
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const days = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !leap(year) ? 1 : 0);
	if (month < 1 || month > 12 || day < 1 || day > days) return `${rule} (no such day)`;
	if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return `${rule} (no such time)`;
	if (!Number.isFinite(dateMs(s))) return `${rule} (out of range)`;
	return undefined;
}
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * An ISO 8601 date (`2024-03-01`) or date-time (`2024-03-01T09:30`, seconds, fractions and a
 * `Z`/`±hh:mm` offset optional; a space may stand for the T). Anything else is refused with the
 * rule, not guessed at: Date.parse once read "1" as 2001-01-01.
 */
export const IsoDateSchema = z
	.string()
	.min(1)
	.superRefine((s, ctx) => {
		const problem = isoDateProblem(s);
		if (problem) ctx.addIssue({ code: 'custom', message: problem });
	});

/** A number in [0, 1]; NaN and ±Infinity are refused. */
export const UnitSchema = z.number().min(0).max(1);

export const MemoryIdSchema = WellFormedStringSchema.min(1, BLANK)
	.max(LIMITS.idChars)
	.refine(nonBlank, { message: 'must not be blank' })
	.describe('Memory id (string)');
/** Characters that show as nothing: controls, zero-width and bidirectional marks (Unicode Cc and Cf). */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/**
 * An id a caller gives a new memory: a MemoryIdSchema in Unicode NFC. Ids match exactly, so
 * "café" typed two ways (NFC, NFD) would be two memories that look like one, and an agent whose
 * client normalises text would update or delete the other one. Imports keep any id (a backup must
 * restore as it was). Nor may it have white space at an end or invisible characters: "fixed " and
 * "fix\u200Bed" showed as "fixed" and were other memories.
 */
export const NewMemoryIdSchema = MemoryIdSchema.refine((s) => s === s.normalize('NFC'), {
	message: 'must be in Unicode NFC form (compose accents: "é" as one character), so it cannot look like another id',
})
	.refine((s) => s === s.trim(), { message: 'must not start or end with white space, so it cannot look like another id' })
	.refine((s) => !INVISIBLE.test(s.trim()), {
		message: 'must not hold invisible characters (control, zero-width or direction marks), so it cannot look like another id',
	})
	.describe('Memory id (string)');

/**
 * A memory reference in the native tools and the engine: its string id, matched exactly. A
 * numeric-looking string ("7") is an id like any other and never falls back to the memory with
 * that `seq`: a retried delete must not hit another memory (issue 23). Integer seqs are
 * addressed only by the profiles whose seed speaks them (memory-mcp), typed as numbers there.
 */
export const MemoryRefSchema = z
	.string()
	.min(1, BLANK)
	.max(LIMITS.idChars)
	.refine(nonBlank, { message: 'must not be blank' })
	.describe('Memory id (string, exact)');
export type MemoryRef = z.infer<typeof MemoryRefSchema>;

export const TagSchema = WellFormedStringSchema.min(1, BLANK).max(LIMITS.tagChars).refine(nonBlank, { message: 'must not be blank' });
export const TagsSchema = z.array(TagSchema).max(LIMITS.tags);

export const EntityRefSchema = z.object({
	name: z.string().min(1, BLANK).max(LIMITS.entityNameChars).refine(nonBlank, { message: 'must not be blank' }).describe('Entity name'),
	type: z.string().min(1).max(50).describe('person, project, tool, place, organisation, concept, file, url, tag, …'),
});
export type EntityRef = z.infer<typeof EntityRefSchema>;

/**
 * Free-form metadata: a JSON object at most LIMITS.metadataDepth levels deep and
 * LIMITS.metadataBytes serialised, with well-formed strings and keys and no `__proto__` key
 * (zod and JSON round trips drop it silently, so it is refused and named instead). Checked on the
 * raw value (zod would already have dropped `__proto__`), by an iterative walk first: only a value
 * that passed the depth rule is handed to JSON.stringify, so deep nesting cannot overflow the stack.
 */
export const MetadataSchema = z.preprocess(
	(raw, ctx) => {
		if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
		const issues = inspect(raw, { maxDepth: LIMITS.metadataDepth, noProtoKeys: true, maxIssues: 10 });
		for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message, input: raw });
		if (issues.length === 0 && JSON.stringify(raw).length > LIMITS.metadataBytes)
			ctx.addIssue({ code: 'custom', message: `must serialise to at most ${LIMITS.metadataBytes} bytes`, input: raw });
		return raw;
	},
	z.record(z.string(), z.unknown()),
);

export const EmbeddingSchema = z.array(z.number()).min(1).max(LIMITS.embeddingDims).describe('Caller-computed embedding vector');

const LEVEL_NAMES = Object.keys(IMPORTANCE_LEVELS) as ImportanceLevel[];
export const ImportanceInputSchema = z
	.union([UnitSchema, z.enum([...LEVEL_NAMES, ...LEVEL_NAMES.map((l) => l.toLowerCase() as Lowercase<ImportanceLevel>)])], {
		error: 'must be a number from 0 to 1 or one of LOW, MEDIUM, HIGH, CRITICAL',
	})
	.describe('0–1, or LOW/MEDIUM/HIGH/CRITICAL (any case)');

/** Normalises an importance input (0–1 or a level name) to 0–1. */
export function importanceValue(v: number | ImportanceLevel | Lowercase<ImportanceLevel>): number {
	return typeof v === 'number' ? v : IMPORTANCE_LEVELS[v.toUpperCase() as ImportanceLevel];
}

/** Normalises any accepted date string to ISO 8601 UTC with milliseconds (a date alone: see `dateMs`). */
export function toIso(s: string): string {
	return new Date(dateMs(s)).toISOString();
}
