/**
 * The syntax tree of query_memory_graph's pattern language (core/graph-query.ts parses text into
 * it; engine/graph/ runs it). Plain data: no methods, no cycles, structured-clone safe.
 */

/** A literal, a list, or a `$name` placeholder, in a property map or an expression. */
export type Expr =
	| { kind: 'lit'; value: string | number | boolean | null }
	| { kind: 'list'; items: Expr[] }
	| { kind: 'param'; name: string; pos: number }
	| { kind: 'var'; name: string; pos: number }
	| { kind: 'prop'; var: string; prop: string; pos: number }
	| { kind: 'cmp'; op: CmpOp; left: Expr; right: Expr }
	| { kind: 'and' | 'or'; items: Expr[] }
	| { kind: 'not'; expr: Expr }
	| { kind: 'isnull'; expr: Expr; negate: boolean }
	| {
			kind: 'call';
			fn: 'count' | 'cos';
			args: Expr[];
			distinct: boolean;
			star: boolean;
			pos: number;
	  };

export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'STARTS WITH' | 'ENDS WITH' | 'IN';

export type NodeLabel = 'Memory' | 'Entity' | 'Tag';

export interface NodePattern {
	var: string;
	label?: NodeLabel;
	props: Record<string, Expr>;
	pos: number;
}

export interface RelPattern {
	var?: string;
	types: string[];
	dir: 'out' | 'in' | 'both';
	hops?: { min: number; max: number };
	props: Record<string, Expr>;
	pos: number;
}

export interface PathPattern {
	nodes: NodePattern[];
	rels: RelPattern[];
}

export interface StartClause {
	var: string;
	args: Record<string, Expr>;
	pos: number;
}

export interface ReturnItem {
	expr: Expr;
	name: string;
}

export interface OrderKey {
	expr: Expr;
	desc: boolean;
}

/** A parsed query. Anonymous nodes get generated variables (`_n1`, …). */
export interface GraphQuery {
	start?: StartClause;
	match: PathPattern[];
	where?: Expr;
	distinct: boolean;
	returns: ReturnItem[];
	orderBy: OrderKey[];
	skip?: Expr;
	limit?: Expr;
}
