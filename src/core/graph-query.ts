/**
 * Parser of query_memory_graph's pattern language: a small, read-only subset of Cypher over
 * memories, entities, tags and the links between them, with AiAkiv's `START a = events(...)`
 * entry clause. Pure: text in, a checked syntax tree out, or a MemoryError naming the line,
 * column and what was expected. The tree's types are in graph-query-ast.ts, the tokenizer in
 * graph-query-lexer.ts; execution lives in engine/graph/ (in the engine worker).
 *
 * @example
 * parseGraphQuery('MATCH (e:Entity {name: $n})<-[:MENTIONS]-(m) WHERE m.type = "Decision" RETURN m LIMIT 5')
 *
 * Grammar (keywords are case-insensitive):
 *   query   := [START var '=' 'events' '(' args ')'] [MATCH path (',' path)*] [WHERE expr]
 *              RETURN [DISTINCT] item (',' item)* [ORDER BY key (',' key)*] [SKIP n] [LIMIT n]
 *   path    := node (rel node)*
 *   node    := '(' [var] [':' Label] [props] ')'            Label: Memory | Event | Entity | Tag
 *   rel     := '-[' [var] [':' TYPE ('|' TYPE)*] ['*' [a] '..' b] [props] ']-' ['>']  |  '<-[' … ']-'
 *   expr    := or/and/not over comparisons (= <> != < <= > >= CONTAINS, STARTS WITH, ENDS WITH, IN,
 *              IS [NOT] NULL) of var.prop, literals, $params, count(), cos(a, b)
 */
import { MemoryError } from './errors';
import { GRAPH_LIMITS, type GraphParamValue } from './graph-schemas';
import type { CmpOp, Expr, GraphQuery, NodeLabel, NodePattern, OrderKey, PathPattern, RelPattern, ReturnItem, StartClause } from './graph-query-ast';
import { describe, syntaxError, tokenize, type Token } from './graph-query-lexer';
import { AUTHORABLE_ASSOCIATION_TYPES, SYSTEM_ASSOCIATION_TYPES } from './schemas';

export type { CmpOp, Expr, GraphQuery, NodeLabel, NodePattern, OrderKey, PathPattern, RelPattern, ReturnItem, StartClause } from './graph-query-ast';

/** Every stored link type, usable as a relationship type in patterns. */
export const ASSOCIATION_TYPES_ALL: readonly string[] = [...AUTHORABLE_ASSOCIATION_TYPES, ...SYSTEM_ASSOCIATION_TYPES];

// ---------------------------------------------------------------- vocabulary

/** Relation types computed from memories rather than stored as associations. */
export const VIRTUAL_RELATIONS = ['MENTIONS', 'TAGGED', 'SHARES', 'SIMILAR', 'FAR', 'NEXT'] as const;
const RELATION_ALIASES: Record<string, string> = {
	PARTICIPATED_IN: 'MENTIONS',
	MEMBER_OF: 'TAGGED',
};
const LABEL_ALIASES: Record<string, NodeLabel> = {
	memory: 'Memory',
	event: 'Memory',
	entity: 'Entity',
	tag: 'Tag',
};
const START_ARGS = ['text', 'entity', 'tag', 'ids', 'k', 'scope'];
const KEYWORDS = new Set(
	'START MATCH WHERE RETURN DISTINCT ORDER BY SKIP LIMIT AND OR NOT IN IS NULL TRUE FALSE CONTAINS STARTS ENDS WITH AS ASC DESC'.split(' '),
);

// ---------------------------------------------------------------- parser

/** Deepest nesting of parentheses, lists and NOTs a query may have (each level is parser stack). */
export const MAX_QUERY_NESTING = 32;
/** Column names a row cannot hold: a JSON object loses a `__proto__` key. */
const RESERVED_COLUMNS = new Set(['__proto__']);

class Parser {
	private i = 0;
	private anon = 0;
	private depth = 0;
	constructor(
		private readonly src: string,
		private readonly toks: Token[],
	) {}

	get tok(): Token {
		return this.toks[this.i];
	}

	fail(expected: string): never {
		throw syntaxError(this.src, this.tok.pos, expected, describe(this.tok));
	}

	/** `f` one level deeper: past MAX_QUERY_NESTING a clear refusal, not a stack overflow. */
	nested<T>(f: () => T): T {
		if (this.depth >= MAX_QUERY_NESTING)
			throw syntaxError(this.src, this.tok.pos, `at most ${MAX_QUERY_NESTING} nested parentheses, lists or NOTs`, 'one more level');
		this.depth++;
		try {
			return f();
		} finally {
			this.depth--;
		}
	}

	isKw(kw: string): boolean {
		return this.tok.t === 'word' && this.tok.v.toUpperCase() === kw;
	}

	acceptKw(kw: string): boolean {
		if (!this.isKw(kw)) return false;
		this.i++;
		return true;
	}

	expectKw(kw: string): void {
		if (!this.acceptKw(kw)) this.fail(kw);
	}

	isSym(s: string): boolean {
		return this.tok.t === 'sym' && this.tok.v === s;
	}

	acceptSym(s: string): boolean {
		if (!this.isSym(s)) return false;
		this.i++;
		return true;
	}

	expectSym(s: string): void {
		if (!this.acceptSym(s)) this.fail(`"${s}"`);
	}

	name(what: string): { v: string; pos: number } {
		const t = this.tok;
		if (t.t !== 'word' || KEYWORDS.has(t.v.toUpperCase())) this.fail(what);
		this.i++;
		return { v: t.v, pos: t.pos };
	}

	query(): GraphQuery {
		const start = this.acceptKw('START') ? this.start() : undefined;
		const match: PathPattern[] = [];
		if (this.acceptKw('MATCH'))
			do match.push(this.path());
			while (this.acceptSym(','));
		if (!start && match.length === 0) this.fail('START or MATCH');
		const where = this.acceptKw('WHERE') ? this.expr() : undefined;
		this.expectKw('RETURN');
		const distinct = this.acceptKw('DISTINCT');
		const returns: ReturnItem[] = [];
		do returns.push(this.returnItem());
		while (this.acceptSym(','));
		const orderBy: OrderKey[] = [];
		if (this.acceptKw('ORDER')) {
			this.expectKw('BY');
			do orderBy.push(this.orderKey());
			while (this.acceptSym(','));
		}
		const skip = this.acceptKw('SKIP') ? this.countValue() : undefined;
		const limit = this.acceptKw('LIMIT') ? this.countValue() : undefined;
		if (this.tok.t !== 'end') this.fail(limit ? 'end of query' : 'ORDER BY, SKIP, LIMIT or end of query');
		return { start, match, where, distinct, returns, orderBy, skip, limit };
	}

	start(): StartClause {
		const v = this.name('a variable name after START');
		this.expectSym('=');
		const fn = this.name('events(...)');
		if (fn.v.toLowerCase() !== 'events') throw syntaxError(this.src, fn.pos, 'events(...)', `"${fn.v}"`);
		this.expectSym('(');
		const args: Record<string, Expr> = {};
		if (!this.isSym(')'))
			do {
				const key = this.name(`an events() argument (${START_ARGS.join(', ')})`);
				if (!START_ARGS.includes(key.v)) throw syntaxError(this.src, key.pos, `an events() argument (${START_ARGS.join(', ')})`, `"${key.v}"`);
				this.expectSym(':');
				args[key.v] = this.value();
			} while (this.acceptSym(','));
		this.expectSym(')');
		return { var: v.v, args, pos: v.pos };
	}

	path(): PathPattern {
		const nodes = [this.node()];
		const rels: RelPattern[] = [];
		while (this.isSym('-') || this.isSym('<')) {
			rels.push(this.rel());
			nodes.push(this.node());
		}
		return { nodes, rels };
	}

	node(): NodePattern {
		const pos = this.tok.pos;
		this.expectSym('(');
		const v = this.tok.t === 'word' && !this.isSym(':') ? this.name('a variable name') : undefined;
		let label: NodeLabel | undefined;
		if (this.acceptSym(':')) {
			const l = this.name('a label (Memory, Event, Entity or Tag)');
			const key = l.v.toLowerCase();
			label = Object.hasOwn(LABEL_ALIASES, key) ? LABEL_ALIASES[key] : undefined;
			if (!label) throw syntaxError(this.src, l.pos, 'a label (Memory, Event, Entity or Tag)', `"${l.v}"`);
		}
		const props = this.isSym('{') ? this.props() : {};
		this.expectSym(')');
		return { var: v?.v ?? `_n${++this.anon}`, label, props, pos };
	}

	rel(): RelPattern {
		const pos = this.tok.pos;
		const incoming = this.acceptSym('<');
		this.expectSym('-');
		this.expectSym('[');
		const v = this.tok.t === 'word' ? this.name('a relationship variable') : undefined;
		const types: string[] = [];
		if (this.acceptSym(':'))
			do types.push(this.relType());
			while (this.acceptSym('|'));
		const hops = this.acceptSym('*') ? this.hops() : undefined;
		const props = this.isSym('{') ? this.props() : {};
		this.expectSym(']');
		this.expectSym('-');
		const outgoing = this.acceptSym('>');
		if (incoming && outgoing) throw syntaxError(this.src, pos, 'one arrow direction', '"<-[…]->"');
		return { var: v?.v, types, dir: incoming ? 'in' : outgoing ? 'out' : 'both', hops, props, pos };
	}

	relType(): string {
		const t = this.name('a relationship type');
		const up = t.v.toUpperCase();
		const type = RELATION_ALIASES[up] ?? up;
		const known = [...VIRTUAL_RELATIONS, ...ASSOCIATION_TYPES_ALL] as readonly string[];
		if (!known.includes(type))
			throw syntaxError(this.src, t.pos, `a relationship type (${[...VIRTUAL_RELATIONS, 'or a link type such as RELATES_TO'].join(', ')})`, `"${t.v}"`);
		return type;
	}

	hops(): { min: number; max: number } {
		const min = this.tok.t === 'num' ? Number(this.next().v) : 1;
		let max = min;
		if (this.acceptSym('..')) max = this.tok.t === 'num' ? Number(this.next().v) : 3;
		if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min || max > 3)
			throw syntaxError(this.src, this.tok.pos, 'a hop range within 1..3', `*${min}..${max}`);
		return { min, max };
	}

	next(): Token {
		return this.toks[this.i++];
	}

	props(): Record<string, Expr> {
		this.expectSym('{');
		const out: Record<string, Expr> = {};
		if (!this.isSym('}'))
			do {
				const key = this.name('a property name');
				this.expectSym(':');
				out[key.v] = this.value();
			} while (this.acceptSym(','));
		this.expectSym('}');
		return out;
	}

	/** A literal, a list of literals, or a $param (property maps and events() arguments). */
	value(): Expr {
		const t = this.tok;
		if (t.t === 'param') return (this.next(), { kind: 'param', name: t.v, pos: t.pos });
		if (this.acceptSym('['))
			return this.nested(() => {
				const items: Expr[] = [];
				if (!this.isSym(']'))
					do items.push(this.value());
					while (this.acceptSym(','));
				this.expectSym(']');
				return { kind: 'list', items };
			});
		const lit = this.literal();
		if (lit === undefined) this.fail('a value (string, number, true, false, null, list or $param)');
		return lit;
	}

	literal(): Expr | undefined {
		const t = this.tok;
		if (t.t === 'str') return (this.next(), { kind: 'lit', value: t.v });
		if (t.t === 'num') return (this.next(), { kind: 'lit', value: Number(t.v) });
		if (this.isSym('-') && this.toks[this.i + 1].t === 'num') {
			this.i++;
			return { kind: 'lit', value: -Number(this.next().v) };
		}
		if (this.acceptKw('TRUE')) return { kind: 'lit', value: true };
		if (this.acceptKw('FALSE')) return { kind: 'lit', value: false };
		if (this.acceptKw('NULL')) return { kind: 'lit', value: null };
		return undefined;
	}

	countValue(): Expr {
		const t = this.tok;
		if (t.t === 'param') return (this.next(), { kind: 'param', name: t.v, pos: t.pos });
		if (t.t !== 'num' || !/^[0-9]+$/.test(t.v)) this.fail('a whole number or $param');
		return (this.next(), { kind: 'lit', value: Number(t.v) });
	}

	expr(): Expr {
		const items = [this.andExpr()];
		while (this.acceptKw('OR')) items.push(this.andExpr());
		return items.length === 1 ? items[0] : { kind: 'or', items };
	}

	andExpr(): Expr {
		const items = [this.notExpr()];
		while (this.acceptKw('AND')) items.push(this.notExpr());
		return items.length === 1 ? items[0] : { kind: 'and', items };
	}

	notExpr(): Expr {
		if (this.acceptKw('NOT')) return this.nested(() => ({ kind: 'not', expr: this.notExpr() }));
		return this.comparison();
	}

	comparison(): Expr {
		const left = this.operand();
		if (this.acceptKw('IS')) {
			const negate = this.acceptKw('NOT');
			this.expectKw('NULL');
			return { kind: 'isnull', expr: left, negate };
		}
		const op = this.cmpOp();
		return op ? { kind: 'cmp', op, left, right: this.operand() } : left;
	}

	cmpOp(): CmpOp | undefined {
		for (const s of ['=', '<>', '<=', '>=', '<', '>'] as const) if (this.acceptSym(s)) return s;
		if (this.acceptKw('CONTAINS')) return 'CONTAINS';
		if (this.acceptKw('IN')) return 'IN';
		if (this.acceptKw('STARTS')) return (this.expectKw('WITH'), 'STARTS WITH');
		if (this.acceptKw('ENDS')) return (this.expectKw('WITH'), 'ENDS WITH');
		return undefined;
	}

	operand(): Expr {
		if (this.acceptSym('('))
			return this.nested(() => {
				const e = this.expr();
				this.expectSym(')');
				return e;
			});
		if (this.tok.t === 'param' || this.isSym('[')) return this.value();
		const lit = this.literal();
		if (lit) return lit;
		const id = this.name('a variable, property, value or function');
		if (this.isSym('(')) return this.call(id);
		if (this.acceptSym('.')) return { kind: 'prop', var: id.v, prop: this.name('a property name').v, pos: id.pos };
		return { kind: 'var', name: id.v, pos: id.pos };
	}

	call(id: { v: string; pos: number }): Expr {
		const fn = id.v.toLowerCase() as 'count' | 'cos';
		if (fn !== 'count' && fn !== 'cos') throw syntaxError(this.src, id.pos, 'count(...) or cos(a, b)', `"${id.v}("`);
		// A call's arguments are operands, so count(count(…)) nests like parentheses do.
		return this.nested(() => this.callArgs(id, fn));
	}

	callArgs(id: { v: string; pos: number }, fn: 'count' | 'cos'): Expr {
		this.expectSym('(');
		if (fn === 'count' && this.acceptSym('*')) {
			this.expectSym(')');
			return { kind: 'call', fn, args: [], distinct: false, star: true, pos: id.pos };
		}
		const distinct = this.acceptKw('DISTINCT');
		const args = [this.operand()];
		while (this.acceptSym(',')) args.push(this.operand());
		this.expectSym(')');
		return { kind: 'call', fn, args, distinct, star: false, pos: id.pos };
	}

	returnItem(): ReturnItem {
		const from = this.tok.pos;
		const expr = this.comparison();
		// Up to the expression's last token: a comment after it is not part of the column's name.
		const text = this.src.slice(from, this.toks[this.i - 1]?.end ?? this.tok.pos).trim();
		const name = this.acceptKw('AS') ? this.name('an alias after AS').v : text;
		return { expr, name };
	}

	orderKey(): OrderKey {
		const expr = this.operand();
		const desc = this.acceptKw('DESC') ? true : (this.acceptKw('ASC'), false);
		return { expr, desc };
	}
}

/** Parses a query; throws MemoryError('invalid_input') with line, column and expectation. */
export function parseGraphQuery(src: string): GraphQuery {
	const q = new Parser(src, tokenize(src)).query();
	checkQuery(q);
	return q;
}

// ---------------------------------------------------------------- checks

/** Variables a query binds: START, every node, every named relationship. */
export function boundVariables(q: GraphQuery): Map<string, 'node' | 'rel'> {
	const vars = new Map<string, 'node' | 'rel'>();
	if (q.start) vars.set(q.start.var, 'node');
	for (const p of q.match) {
		for (const n of p.nodes) vars.set(n.var, 'node');
		for (const r of p.rels) if (r.var) vars.set(r.var, 'rel');
	}
	return vars;
}

function checkQuery(q: GraphQuery): void {
	const nodes = (q.start ? 1 : 0) + q.match.reduce((n, p) => n + p.nodes.length, 0);
	if (nodes > GRAPH_LIMITS.nodes)
		throw new MemoryError(
			'invalid_input',
			`query: at most ${GRAPH_LIMITS.nodes} node patterns in one query (this one has ${nodes}); connect them with relationships or run several queries`,
		);
	const vars = boundVariables(q);
	const aliases = new Set<string>();
	// Each row is an object keyed by column: a second column of one name took the first one's place.
	for (const r of q.returns) {
		if (RESERVED_COLUMNS.has(r.name)) throw new MemoryError('invalid_input', `query: "${r.name}" cannot name a RETURN column; choose another name with AS`);
		if (aliases.has(r.name)) throw new MemoryError('invalid_input', `query: two RETURN columns are named "${r.name}"; give one another name with AS`);
		aliases.add(r.name);
	}
	const refs: Expr[] = [...(q.where ? [q.where] : []), ...q.returns.map((r) => r.expr)];
	for (const e of refs) checkRefs(e, vars, undefined);
	for (const k of q.orderBy) checkRefs(k.expr, vars, aliases);
	for (const p of q.match) for (const r of p.rels) checkRel(r);
}

function checkRefs(e: Expr, vars: Map<string, string>, aliases: Set<string> | undefined): void {
	const unknown = (name: string) =>
		new MemoryError(
			'invalid_input',
			`query: unknown variable "${name}"; bound: ${[...vars.keys()].filter((v) => !v.startsWith('_')).join(', ') || 'none'}`,
		);
	switch (e.kind) {
		case 'var':
			if (!vars.has(e.name) && !aliases?.has(e.name)) throw unknown(e.name);
			return;
		case 'prop':
			if (!vars.has(e.var)) throw unknown(e.var);
			return;
		case 'cmp':
			return (checkRefs(e.left, vars, aliases), checkRefs(e.right, vars, aliases));
		case 'and':
		case 'or':
		case 'list':
			return e.items.forEach((x) => checkRefs(x, vars, aliases));
		case 'not':
		case 'isnull':
			return checkRefs(e.expr, vars, aliases);
		case 'call':
			return e.args.forEach((x) => checkRefs(x, vars, aliases));
	}
}

function checkRel(r: RelPattern): void {
	if (r.hops && r.types.some((t) => ['MENTIONS', 'TAGGED', 'SIMILAR', 'FAR'].includes(t)))
		throw new MemoryError('invalid_input', `query: a hop range (*a..b) only applies to NEXT, SHARES or link types, not ${r.types.join('|')}`);
	if (r.types.length > 1 && r.types.some((t) => (VIRTUAL_RELATIONS as readonly string[]).includes(t)))
		throw new MemoryError('invalid_input', `query: ${r.types.join('|')}: only link types can be combined with "|"`);
	if ((r.types[0] === 'NEXT' || r.types[0] === 'TAGGED') && r.dir === 'both')
		throw new MemoryError('invalid_input', `query: ${r.types[0]} is directed: write -[:${r.types[0]}]-> or <-[:${r.types[0]}]-`);
}

// ---------------------------------------------------------------- parameters

/** Replaces every $param with its value; throws naming the first missing one. */
export function bindParams(q: GraphQuery, params: Record<string, GraphParamValue> = {}): GraphQuery {
	const sub = (e: Expr): Expr => substitute(e, params);
	const props = (m: Record<string, Expr>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, sub(v)]));
	return {
		...q,
		start: q.start && { ...q.start, args: props(q.start.args) },
		match: q.match.map((p) => ({
			nodes: p.nodes.map((n) => ({ ...n, props: props(n.props) })),
			rels: p.rels.map((r) => ({ ...r, props: props(r.props) })),
		})),
		where: q.where && sub(q.where),
		returns: q.returns.map((r) => ({ ...r, expr: sub(r.expr) })),
		orderBy: q.orderBy.map((k) => ({ ...k, expr: sub(k.expr) })),
		skip: q.skip && sub(q.skip),
		limit: q.limit && sub(q.limit),
	};
}

function substitute(e: Expr, params: Record<string, GraphParamValue>): Expr {
	switch (e.kind) {
		case 'param': {
			// Own keys only: `$constructor` or `$toString` must not bind what every object inherits.
			if (!Object.hasOwn(params, e.name)) throw new MemoryError('invalid_input', `params: $${e.name} is used in the query but not given in params`);
			return toExpr(params[e.name]);
		}
		case 'cmp':
			return { ...e, left: substitute(e.left, params), right: substitute(e.right, params) };
		case 'and':
		case 'or':
		case 'list':
			return { ...e, items: e.items.map((x) => substitute(x, params)) };
		case 'not':
		case 'isnull':
			return { ...e, expr: substitute(e.expr, params) };
		case 'call':
			return { ...e, args: e.args.map((x) => substitute(x, params)) };
		default:
			return e;
	}
}

function toExpr(v: GraphParamValue): Expr {
	return Array.isArray(v) ? { kind: 'list', items: v.map((x) => ({ kind: 'lit', value: x })) } : { kind: 'lit', value: v };
}

/** The constant value of a literal or list expression (after bindParams), else undefined. */
export function constValue(e: Expr | undefined): unknown {
	if (!e) return undefined;
	if (e.kind === 'lit') return e.value;
	if (e.kind === 'list') return e.items.map(constValue);
	return undefined;
}
