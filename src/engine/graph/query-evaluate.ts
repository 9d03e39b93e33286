/**
 * query_memory_graph, evaluation: node patterns' labels and properties, variables' properties,
 * and WHERE's expressions (comparisons, AND / OR / NOT, IS NULL, cos(a, b)) over one row.
 *
 * Contract: Cypher-like null handling (a comparison with null is false); text comparisons ignore
 * case; an unknown property or a misplaced count() throws invalid_input naming it. Records are
 * loaded in batches (QueryState.preload) before rows are checked, never one by one.
 */
import { constValue, type Expr, type NodePattern } from '../../core/graph-query';
import { invalid, key, round3, type GNode, type QueryState, type Row, type Val } from './query-state';

/** The properties a Memory variable has. */
const MEMORY_PROPS = [
	'id',
	'seq',
	'content',
	'summary',
	'type',
	'tags',
	'scope',
	'source',
	'importance',
	'confidence',
	'timestamp',
	'updated_at',
	't_valid',
	't_invalid',
	'access_count',
	'current',
	'entities',
	'score',
];
/** The properties an Entity variable has. */
const ENTITY_PROPS = ['id', 'name', 'type', 'memory_count', 'aliases', 'first_seen', 'last_seen'];

/** The rows whose node for `n` has `n`'s label and properties (records loaded first, in bulk). */
export async function filterNodes(ex: QueryState, rows: Row[], n: NodePattern): Promise<Row[]> {
	const out: Row[] = [];
	// Labels are known from the binding; records are read only when properties must be checked.
	if (Object.keys(n.props).length > 0) await ex.preload(rows, new Set([n.var]));
	for (const r of rows) if (nodeMatches(ex, r[n.var] as GNode, n)) out.push(r);
	return out;
}

function nodeMatches(ex: QueryState, node: GNode, n: NodePattern): boolean {
	const kind = { Memory: 'memory', Entity: 'entity', Tag: 'tag' }[n.label ?? 'Memory'];
	if (n.label && node.kind !== kind) return false;
	for (const [k, e] of Object.entries(n.props)) if (!propMatches(ex, node, k, constValue(e))) return false;
	return true;
}

function propMatches(ex: QueryState, node: GNode, k: string, want: unknown): boolean {
	if (node.kind === 'memory') {
		const m = ex.memories.get(node.id);
		if (!m) return false;
		if (k === 'tag') return m.tags.includes(String(want));
		if (k === 'tags' && Array.isArray(want)) return want.every((t) => m.tags.includes(String(t)));
		if (k === 'ids' || (k === 'id' && Array.isArray(want))) return Array.isArray(want) && want.includes(m.id);
		if (k === 'id') return want === m.id;
		if (k === 'seq') return want === m.seq;
	}
	if (node.kind === 'entity' && k === 'name') {
		const e = ex.entities.get(node.id);
		const w = String(want).toLowerCase();
		return !!e && (e.name.toLowerCase() === w || e.aliases.some((a) => a.toLowerCase() === w));
	}
	return equal(prop(ex, node, k), want);
}

/** A variable's property: a record field, or a computed one (current, entities, score). */
export function prop(ex: QueryState, v: Val, p: string): unknown {
	if (v.kind === 'rel') return v[p] ?? null;
	if (v.kind === 'tag') {
		if (p !== 'name') throw invalid(`a Tag has only the property name, not "${p}"`);
		return v.name;
	}
	if (v.kind === 'entity') {
		if (!ENTITY_PROPS.includes(p)) throw invalid(`an Entity has no property "${p}" (it has ${ENTITY_PROPS.join(', ')})`);
		return (ex.entities.get(v.id) as Record<string, unknown> | null)?.[p] ?? null;
	}
	if (!MEMORY_PROPS.includes(p)) throw invalid(`a Memory has no property "${p}" (it has ${MEMORY_PROPS.join(', ')})`);
	const m = ex.memories.get(v.id);
	if (!m) return null;
	if (p === 'current') return !m.t_invalid || Date.parse(m.t_invalid) > Date.now();
	if (p === 'entities') return m.entities.map((e) => e.name);
	if (p === 'score') return ex.startScore.has(m.id) ? round3(ex.startScore.get(m.id)!) : null;
	return (m as Record<string, unknown>)[p] ?? null;
}

/** The rows for which WHERE is true (null and false drop a row). */
export async function filterRows(ex: QueryState, rows: Row[], where: Expr): Promise<Row[]> {
	const out: Row[] = [];
	for (const r of rows) if ((await evaluate(ex, where, r)) === true) out.push(r);
	return out;
}

/** The value of an expression over one row. */
export async function evaluate(ex: QueryState, e: Expr, r: Row): Promise<unknown> {
	switch (e.kind) {
		case 'lit':
			return e.value;
		case 'list':
			return Promise.all(e.items.map((x) => evaluate(ex, x, r)));
		case 'var':
			return r[e.name] ? key(r[e.name]) : null;
		case 'prop':
			return r[e.var] ? prop(ex, r[e.var], e.prop) : null;
		case 'and':
			for (const x of e.items) if ((await evaluate(ex, x, r)) !== true) return false;
			return true;
		case 'or':
			for (const x of e.items) if ((await evaluate(ex, x, r)) === true) return true;
			return false;
		case 'not':
			return (await evaluate(ex, e.expr, r)) !== true;
		case 'isnull':
			return ((await evaluate(ex, e.expr, r)) === null) !== e.negate;
		case 'cmp':
			return compare(e.op, await evaluate(ex, e.left, r), await evaluate(ex, e.right, r));
		case 'call':
			return callFn(ex, e, r);
		case 'param':
			throw invalid(`$${e.name} was not bound`);
	}
}

async function callFn(ex: QueryState, e: Extract<Expr, { kind: 'call' }>, r: Row): Promise<unknown> {
	if (e.fn === 'count') throw invalid('count() is only allowed in RETURN');
	if (e.args.length !== 2 || e.args.some((a) => a.kind !== 'var')) throw invalid('cos(a, b) takes two memory variables');
	const [a, b] = e.args.map((x) => r[(x as { name: string }).name]);
	if (a?.kind !== 'memory' || b?.kind !== 'memory') return null;
	const c = await ex.cosine(a.id, b.id);
	return c === null ? null : round3(c);
}

/** Variables an expression list reads (so only their records are loaded). */
export function varsOf(exprs: Expr[]): Set<string> {
	const out = new Set<string>();
	const walk = (e: Expr): void => {
		if (e.kind === 'var') out.add(e.name);
		else if (e.kind === 'prop') out.add(e.var);
		else if (e.kind === 'cmp') {
			walk(e.left);
			walk(e.right);
		} else if (e.kind === 'and' || e.kind === 'or' || e.kind === 'list') e.items.forEach(walk);
		else if (e.kind === 'not' || e.kind === 'isnull') walk(e.expr);
		else if (e.kind === 'call') e.args.forEach(walk);
	};
	exprs.forEach(walk);
	return out;
}

/** Whether an expression is count(...). */
export function isCount(e: Expr): boolean {
	return e.kind === 'call' && e.fn === 'count';
}

/** Equality of two values (lists by content). */
export function equal(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) && Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
	if (typeof a === 'string' && typeof b === 'string') return a === b;
	return a === b;
}

function lower(x: unknown): string {
	return String(x).toLowerCase();
}

/** Cypher-like comparison; null on either side is false. Text matches ignore case. */
export function compare(op: string, a: unknown, b: unknown): boolean {
	if (a === null || a === undefined || b === null || b === undefined) return false;
	switch (op) {
		case '=':
			return equal(a, b);
		case '<>':
			return !equal(a, b);
		case 'IN':
			return Array.isArray(b) && b.some((x) => equal(a, x));
		case 'CONTAINS':
			return Array.isArray(a) ? a.some((x) => lower(x) === lower(b)) : lower(a).includes(lower(b));
		case 'STARTS WITH':
			return lower(a).startsWith(lower(b));
		case 'ENDS WITH':
			return lower(a).endsWith(lower(b));
		default: {
			const c = cmpValues(a, b);
			return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
		}
	}
}

/** Sort order of two values: nulls last, numbers by value, the rest as text. */
export function cmpValues(a: unknown, b: unknown): number {
	if (a === b) return 0;
	if (a === null || a === undefined) return 1;
	if (b === null || b === undefined) return -1;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	return String(a).localeCompare(String(b));
}
