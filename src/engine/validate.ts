/**
 * Input validation for every engine entry point: runs a zod schema and turns its issues into
 * one MemoryError('invalid_input') whose message names each field and the rule it broke, e.g.
 * `memories[3].content: must be at most 50000 characters`.
 */
import type { z } from 'zod';
import { MemoryError } from '../core/errors';
import { AUTHORABLE_ASSOCIATION_TYPES, SYSTEM_ASSOCIATION_TYPES } from '../core/schemas';

/** The zod issue fields we read (zod 4's issue union, loosely). */
interface Issue {
	code: string;
	path: PropertyKey[];
	message: string;
	origin?: string;
	maximum?: number | bigint;
	minimum?: number | bigint;
	inclusive?: boolean;
	expected?: string;
	received?: string;
	values?: unknown[];
	keys?: string[];
	errors?: Issue[][];
}

/**
 * Parses `input` with `schema`; returns the parsed value or throws MemoryError('invalid_input').
 * The error's `data.issues` lists `{ path, rule }` for each problem.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
	const r = schema.safeParse(input);
	if (r.success) return r.data;
	const issues = (r.error.issues as unknown as Issue[]).map((i) => ({
		path: formatPath(i.path),
		rule: describeIssue(i, valueAt(input, i.path)),
	}));
	const message = issues.map((i) => `${i.path}: ${i.rule}`).join('; ');
	throw new MemoryError('invalid_input', message, { issues });
}

/** `['memories', 3, 'content']` → `memories[3].content`; the empty path is `input`. */
export function formatPath(path: PropertyKey[]): string {
	let out = '';
	for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
	return out === '' ? 'input' : out;
}

/** The value at `path` in `input` (undefined where the path leaves it). */
export function valueAt(input: unknown, path: PropertyKey[]): unknown {
	let cur = input;
	for (const p of path) {
		if (cur === null || typeof cur !== 'object') return undefined;
		cur = (cur as Record<PropertyKey, unknown>)[p];
	}
	return cur;
}

/** One issue as a rule a person can act on. */
export function describeIssue(i: Issue, value: unknown): string {
	switch (i.code) {
		case 'too_big':
			return describeBound(i, 'most', 'less than');
		case 'too_small':
			return describeBound(i, 'least', 'greater than');
		case 'invalid_type':
			return describeType(i, value);
		case 'invalid_value':
			return describeEnum(i.values ?? [], value);
		case 'invalid_union':
			return describeUnion(i, value);
		case 'unrecognized_keys':
			return `unknown field(s): ${(i.keys ?? []).join(', ')}`;
		default:
			return i.message;
	}
}

function describeBound(i: Issue, word: 'most' | 'least', strict: string): string {
	const n = Number(i.code === 'too_big' ? i.maximum : i.minimum);
	if (i.code === 'too_small' && n === 1 && (i.origin === 'string' || i.origin === 'array')) return 'must not be empty';
	const rel = i.inclusive === false ? strict : `at ${word}`;
	if (i.origin === 'string') return `must be ${rel} ${n} characters`;
	if (i.origin === 'array') return `must have ${rel} ${n} items`;
	return `must be ${rel} ${n}`;
}

function received(i: Issue, value: unknown): string {
	if (i.received) return i.received;
	const m = /received (\w+)/.exec(i.message);
	if (m) return m[1];
	return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function expectedPhrase(expected: string | undefined): string {
	if (expected === 'int') return 'an integer';
	if (expected === 'number') return 'a finite number';
	if (expected === 'array' || expected === 'object') return `an ${expected}`;
	return `a ${expected ?? 'value'}`;
}

function describeType(i: Issue, value: unknown): string {
	if (value === undefined) return 'is required';
	return `must be ${expectedPhrase(i.expected)} (got ${received(i, value)})`;
}

function describeEnum(values: unknown[], value: unknown): string {
	const list = values.map(String).join(', ');
	const sameSet =
		values.length === AUTHORABLE_ASSOCIATION_TYPES.length && values.every((v) => (AUTHORABLE_ASSOCIATION_TYPES as readonly unknown[]).includes(v));
	if (sameSet && (SYSTEM_ASSOCIATION_TYPES as readonly unknown[]).includes(value))
		return `${String(value)} is a system relation that Engram creates itself and cannot be authored; use one of ${list}`;
	return `must be one of ${list}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`;
}

/**
 * A union failed every branch. When one branch got the right type but broke a rule (importance 2
 * is a number above 1), report that rule; otherwise list what each branch would have accepted.
 */
function describeUnion(i: Issue, value: unknown): string {
	const branches = i.errors ?? [];
	const typed = branches.find((b) => b.length > 0 && b.every((x) => x.code !== 'invalid_type' && x.code !== 'invalid_value'));
	if (typed) return describeIssue(typed[0], value);
	const parts = branches.flatMap((b) =>
		b.map((x) => (x.code === 'invalid_value' ? `one of ${(x.values ?? []).map(String).join(', ')}` : expectedPhrase(x.expected))),
	);
	if (value === undefined) return 'is required';
	const got = typeof value === 'number' ? String(value) : received(branches[0]?.[0] ?? i, value);
	// A union that words its own rule (importance: "must be a number from 0 to 1 or one of …").
	if (i.message.startsWith('must ')) return `${i.message} (got ${got})`;
	return `must be ${[...new Set(parts)].join(' or ')} (got ${got})`;
}
