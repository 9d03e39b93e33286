/**
 * The pattern language of query_memory_graph (src/core/graph-query.ts): what parses to what,
 * and the exact errors — each naming line, column and what was expected — for what does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../../src/core/errors';
import { bindParams, parseGraphQuery } from '../../../src/core/graph-query';

function error(fn: () => unknown): { code: string; message: string } {
	try {
		fn();
	} catch (e) {
		return e as { code: string; message: string };
	}
	throw new Error('expected a parse error');
}

describe('parseGraphQuery', () => {
	describe('patterns', () => {
		it('parses a labelled node with properties, a typed directed relationship and LIMIT', () => {
			const q = parseGraphQuery('MATCH (m:Memory {tag:"auth"})-[:SIMILAR_TO {min:0.8}]->(n) RETURN n LIMIT 10');
			expect(q.match).toHaveLength(1);
			const [p] = q.match;
			expect(p.nodes.map((n) => [n.var, n.label])).toEqual([
				['m', 'Memory'],
				['n', undefined],
			]);
			expect(p.nodes[0].props.tag).toEqual({ kind: 'lit', value: 'auth' });
			expect(p.rels[0]).toMatchObject({
				types: ['SIMILAR_TO'],
				dir: 'out',
				props: { min: { kind: 'lit', value: 0.8 } },
			});
			expect(q.limit).toEqual({ kind: 'lit', value: 10 });
			expect(q.returns).toMatchObject([{ expr: { kind: 'var', name: 'n' }, name: 'n' }]);
		});

		it('reads an incoming arrow and a WHERE comparison', () => {
			const q = parseGraphQuery('MATCH (e:Entity {name:"PostgreSQL"})<-[:MENTIONS]-(m) WHERE m.type = "Decision" RETURN m');
			expect(q.match[0].rels[0].dir).toBe('in');
			expect(q.where).toMatchObject({
				kind: 'cmp',
				op: '=',
				left: { kind: 'prop', var: 'm', prop: 'type' },
				right: { kind: 'lit', value: 'Decision' },
			});
		});

		it('maps AiAkiv aliases: Event → Memory, PARTICIPATED_IN → MENTIONS, MEMBER_OF → TAGGED', () => {
			const q = parseGraphQuery('MATCH (a:Event)-[:PARTICIPATED_IN]-(e), (a)-[:MEMBER_OF]->(t:Tag) RETURN e, t');
			expect(q.match[0].nodes[0].label).toBe('Memory');
			expect(q.match[0].rels[0].types).toEqual(['MENTIONS']);
			expect(q.match[1].rels[0].types).toEqual(['TAGGED']);
		});

		it('gives anonymous nodes generated variables and accepts relationship alternatives', () => {
			const q = parseGraphQuery('MATCH (:Memory)-[r:LEADS_TO|RELATES_TO]-() RETURN r');
			expect(q.match[0].nodes.map((n) => n.var)).toEqual(['_n1', '_n2']);
			expect(q.match[0].rels[0]).toMatchObject({
				var: 'r',
				types: ['LEADS_TO', 'RELATES_TO'],
				dir: 'both',
			});
		});

		it('parses hop ranges: *1..3, *2 and *..2', () => {
			expect(parseGraphQuery('MATCH (a)-[:NEXT*1..3]->(b) RETURN b').match[0].rels[0].hops).toEqual({ min: 1, max: 3 });
			expect(parseGraphQuery('MATCH (a)-[:NEXT*2]->(b) RETURN b').match[0].rels[0].hops).toEqual({
				min: 2,
				max: 2,
			});
			expect(parseGraphQuery('MATCH (a)-[:NEXT*..2]->(b) RETURN b').match[0].rels[0].hops).toEqual({
				min: 1,
				max: 2,
			});
		});
	});

	describe('START, RETURN and paging', () => {
		it("parses AiAkiv's START clause with its arguments", () => {
			const q = parseGraphQuery('START a = events(text: $q, k: 5) MATCH (a)-[s:SHARES {min: 2}]-(b) RETURN b, s.count ORDER BY s.weight DESC LIMIT 10');
			expect(q.start).toMatchObject({
				var: 'a',
				args: { text: { kind: 'param', name: 'q' }, k: { kind: 'lit', value: 5 } },
			});
			expect(q.orderBy).toMatchObject([{ expr: { kind: 'prop', var: 's', prop: 'weight' }, desc: true }]);
			expect(q.returns.map((r) => r.name)).toEqual(['b', 's.count']);
		});

		it('lets START stand alone', () => {
			const q = parseGraphQuery('START a = events(entity: "Redis", k: 20) RETURN a, a.score');
			expect(q.match).toEqual([]);
			expect(q.returns.map((r) => r.name)).toEqual(['a', 'a.score']);
		});

		it('parses count(DISTINCT x) AS alias, DISTINCT, SKIP and ORDER BY an alias', () => {
			const q = parseGraphQuery('MATCH (a)-[:MENTIONS]->(e) RETURN DISTINCT e.name, count(DISTINCT a) AS n ORDER BY n DESC SKIP 5 LIMIT 15');
			expect(q.distinct).toBe(true);
			expect(q.returns[1]).toMatchObject({
				name: 'n',
				expr: { kind: 'call', fn: 'count', distinct: true },
			});
			expect(q.skip).toEqual({ kind: 'lit', value: 5 });
		});

		it('parses boolean logic with NOT, IN, IS NOT NULL, STARTS WITH and negative numbers', () => {
			const q = parseGraphQuery(
				'MATCH (m) WHERE NOT m.type IN ["Habit", "Style"] AND (m.t_invalid IS NOT NULL OR m.summary STARTS WITH "Fix") AND m.importance > -1 RETURN m',
			);
			expect(q.where).toMatchObject({
				kind: 'and',
				items: [
					{ kind: 'not', expr: { kind: 'cmp', op: 'IN' } },
					{
						kind: 'or',
						items: [
							{ kind: 'isnull', negate: true },
							{ kind: 'cmp', op: 'STARTS WITH' },
						],
					},
					{ kind: 'cmp', op: '>', right: { kind: 'lit', value: -1 } },
				],
			});
		});

		it('accepts lower-case keywords, != for <> and // comments', () => {
			const q = parseGraphQuery('match (a)-[:SHARES]-(b) // shared entities\nwhere b.id != a.id return b');
			expect(q.where).toMatchObject({ kind: 'cmp', op: '<>' });
		});
	});

	describe('errors', () => {
		it('names line, column and expectation for a missing LIMIT value', () => {
			expect(error(() => parseGraphQuery('MATCH (m) RETURN m LIMIT'))).toMatchObject({
				code: 'invalid_input',
				message: 'query: at line 1, column 25 (offset 24): expected a whole number or $param, found end of query',
			});
		});

		it('reports the line of a multi-line query', () => {
			expect(error(() => parseGraphQuery('MATCH (m)\nWHERE m.type = \nRETURN m')).message).toBe(
				'query: at line 3, column 1 (offset 26): expected a variable, property, value or function, found "RETURN"',
			);
		});

		it('refuses an unknown label', () => {
			expect(error(() => parseGraphQuery('MATCH (m:Foo) RETURN m')).message).toBe(
				'query: at line 1, column 10 (offset 9): expected a label (Memory, Event, Entity or Tag), found "Foo"',
			);
		});

		it('refuses an unknown relationship type and lists the vocabulary', () => {
			expect(error(() => parseGraphQuery('MATCH (m)-[:BOGUS]->(n) RETURN m')).message).toBe(
				'query: at line 1, column 13 (offset 12): expected a relationship type (MENTIONS, TAGGED, SHARES, SIMILAR, FAR, NEXT, or a link type such as RELATES_TO), found "BOGUS"',
			);
		});

		it('refuses a query with neither START nor MATCH', () => {
			expect(error(() => parseGraphQuery('RETURN 1')).message).toBe('query: at line 1, column 1 (offset 0): expected START or MATCH, found "RETURN"');
		});

		it('refuses writes: CREATE is not part of the language', () => {
			expect(error(() => parseGraphQuery('CREATE (m) RETURN m')).message).toBe(
				'query: at line 1, column 1 (offset 0): expected START or MATCH, found "CREATE"',
			);
		});

		it('refuses trailing input', () => {
			expect(error(() => parseGraphQuery('MATCH (m) RETURN m LIMIT 5 DELETE m')).message).toBe(
				'query: at line 1, column 28 (offset 27): expected end of query, found "DELETE"',
			);
		});

		it('refuses an unterminated string', () => {
			expect(error(() => parseGraphQuery('MATCH (m {tag: "auth}) RETURN m')).message).toBe(
				'query: at line 1, column 16 (offset 15): expected a closing " for the string, found end of query',
			);
		});

		it('refuses a variable that nothing binds', () => {
			expect(error(() => parseGraphQuery('MATCH (m) RETURN x')).message).toBe('query: unknown variable "x"; bound: m');
		});

		it('refuses an unknown events() argument', () => {
			expect(error(() => parseGraphQuery('START a = events(query: "x") RETURN a')).message).toBe(
				'query: at line 1, column 18 (offset 17): expected an events() argument (text, entity, tag, ids, k, scope), found "query"',
			);
		});

		it('refuses hop ranges over 3 and hop ranges on MENTIONS', () => {
			expect(error(() => parseGraphQuery('MATCH (a)-[:NEXT*1..5]->(b) RETURN b')).message).toBe(
				'query: at line 1, column 22 (offset 21): expected a hop range within 1..3, found *1..5',
			);
			expect(error(() => parseGraphQuery('MATCH (a)-[:MENTIONS*1..2]->(b) RETURN b')).message).toBe(
				'query: a hop range (*a..b) only applies to NEXT, SHARES or link types, not MENTIONS',
			);
		});

		it('refuses an undirected NEXT and a double arrow', () => {
			expect(error(() => parseGraphQuery('MATCH (a)-[:NEXT]-(b) RETURN b')).message).toBe('query: NEXT is directed: write -[:NEXT]-> or <-[:NEXT]-');
			expect(error(() => parseGraphQuery('MATCH (a)<-[:RELATES_TO]->(b) RETURN b')).message).toBe(
				'query: at line 1, column 10 (offset 9): expected one arrow direction, found "<-[…]->"',
			);
		});
	});
});

describe('bindParams', () => {
	it('substitutes scalars and lists everywhere they appear', () => {
		const q = bindParams(parseGraphQuery('START a = events(ids: $ids) MATCH (a)-[:SIMILAR {min: $m}]-(b) WHERE b.type IN $types RETURN b LIMIT $n'), {
			ids: ['x', 'y'],
			m: 0.5,
			types: ['Decision'],
			n: 3,
		});
		expect(q.start!.args.ids).toEqual({
			kind: 'list',
			items: [
				{ kind: 'lit', value: 'x' },
				{ kind: 'lit', value: 'y' },
			],
		});
		expect(q.match[0].rels[0].props.min).toEqual({ kind: 'lit', value: 0.5 });
		expect(q.where).toMatchObject({
			right: { kind: 'list', items: [{ kind: 'lit', value: 'Decision' }] },
		});
		expect(q.limit).toEqual({ kind: 'lit', value: 3 });
	});

	it('names the first parameter the query uses but params lacks', () => {
		expect(error(() => bindParams(parseGraphQuery('START a = events(text: $q) RETURN a'), {}))).toMatchObject({
			code: 'invalid_input',
			message: 'params: $q is used in the query but not given in params',
		});
	});
});

describe('labels that are Object.prototype keys', () => {
	it('refuses (m:constructor) and (m:__proto__) as unknown labels', () => {
		for (const label of ['constructor', '__proto__']) expect(() => parseGraphQuery(`MATCH (m:${label}) RETURN m`)).toThrow(/label/);
	});
});

describe('hostile queries', () => {
	it('refuses calls nested past the limit (count(count(…)) 50,000 deep overflowed the stack with a RangeError)', () => {
		for (const fn of ['count', 'cos']) {
			const e = error(() => parseGraphQuery(`MATCH (m) RETURN ${`${fn}(`.repeat(50_000)}m${')'.repeat(50_000)}`));
			expect(e).toBeInstanceOf(MemoryError);
			expect(e.message).toMatch(/expected at most 32 nested parentheses, lists or NOTs/);
		}
	});

	it('names a $parameter that params lacks even when every object has it ($constructor, $toString, $__proto__)', () => {
		for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
			expect(error(() => bindParams(parseGraphQuery(`MATCH (m) WHERE m.content = $${name} RETURN m`), {}))).toMatchObject({
				code: 'invalid_input',
				message: `params: $${name} is used in the query but not given in params`,
			});
		}
		const bound = bindParams(parseGraphQuery('MATCH (m) WHERE m.content = $constructor RETURN m'), { constructor: 'x' });
		expect(bound.where).toMatchObject({ right: { kind: 'lit', value: 'x' } });
	});

	it('refuses two RETURN columns of one name, and a column named __proto__ (a row keeps one key per name)', () => {
		expect(error(() => parseGraphQuery('MATCH (m) RETURN m.id AS a, m.content AS a'))).toMatchObject({
			code: 'invalid_input',
			message: 'query: two RETURN columns are named "a"; give one another name with AS',
		});
		expect(error(() => parseGraphQuery('MATCH (m) RETURN m.id, m.id')).message).toMatch(/two RETURN columns are named "m.id"/);
		expect(error(() => parseGraphQuery('MATCH (m) RETURN m.id AS __proto__')).message).toBe(
			'query: "__proto__" cannot name a RETURN column; choose another name with AS',
		);
		expect(parseGraphQuery('MATCH (m) RETURN m.id AS constructor, m.id AS id').returns.map((r) => r.name)).toEqual(['constructor', 'id']);
	});

	it('throws nothing but a MemoryError for token soup, mutated queries and random text, each within a second', () => {
		const vocab = [
			...'START MATCH WHERE RETURN DISTINCT ORDER BY SKIP LIMIT AND OR NOT IN IS NULL TRUE FALSE CONTAINS STARTS ENDS WITH AS ASC DESC'.split(' '),
			...'events count cos m a b Memory Entity Tag Event RELATES_TO NEXT SHARES SIMILAR TAGGED MENTIONS text k ids id content tags'.split(' '),
			...'( ) [ ] { } : , . .. - -> <- < > = <> != <= >= * | $p $q "x" \'y\' `a b` 1 0 3 2.5 -1 $ " ` \\ 🙂 é 9999999999999999999999'.split(' '),
			'//c\n',
			'\u0000',
		];
		const valid = [
			'MATCH (m:Memory)-[:RELATES_TO]->(b) WHERE m.content CONTAINS "x" RETURN m.id, b LIMIT 3',
			'START a = events(text: $q, k: 5) MATCH (a)-[:SHARES*1..2]-(b) RETURN DISTINCT b ORDER BY b.timestamp DESC SKIP 1 LIMIT 2',
		];
		const parse = (q: string) => {
			const t = performance.now();
			try {
				bindParams(parseGraphQuery(q), { p: 1, q: 'x' });
			} catch (e) {
				if (!(e instanceof MemoryError)) throw new Error(`${(e as Error).name} for ${JSON.stringify(q)}: ${(e as Error).message}`, { cause: e });
			}
			if (performance.now() - t > 1000) throw new Error(`slow: ${JSON.stringify(q)}`);
		};
		const soup = fc.array(fc.oneof({ arbitrary: fc.constantFrom(...vocab), weight: 8 }, { arbitrary: fc.string({ maxLength: 4 }), weight: 1 }), {
			maxLength: 40,
		});
		fc.assert(
			fc.property(soup, fc.constantFrom(' ', ''), (ts, sep) => parse(ts.join(sep))),
			{ numRuns: 20_000 },
		);
		const mutation = fc.tuple(fc.constantFrom(...valid), fc.nat(200), fc.nat(10), fc.constantFrom(...vocab, ''));
		fc.assert(
			fc.property(mutation, ([v, at, cut, ins]) => parse(v.slice(0, at) + ins + v.slice(at + cut))),
			{ numRuns: 10_000 },
		);
		fc.assert(fc.property(fc.string({ maxLength: 4000, unit: 'binary' }), parse), { numRuns: 300 });
	});
});
