/**
 * Well-formed input, checked without recursion: every string an agent or an import hands in
 * must be well-formed UTF-16 (a lone surrogate once blanked the app: `encodeURIComponent` throws
 * `URIError` on one), and metadata must stay shallow enough that `JSON.stringify` and structured
 * clone cannot overflow the stack (5,000 levels crashed the relay). The walks here use an explicit
 * stack, so they survive any depth they are asked to measure.
 */

/** The index of the first lone UTF-16 surrogate in `s`, or -1 when `s` is well-formed. */
export function loneSurrogateAt(s: string): number {
	// The native check is much faster on long strings (imports run to 20 MB); scan only on failure.
	const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
	if (native && native.call(s)) return -1;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0xd800 || c > 0xdfff) continue;
		if (c <= 0xdbff) {
			const next = s.charCodeAt(i + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				i++;
				continue;
			}
		}
		return i;
	}
	return -1;
}

/** `s` with each lone surrogate replaced by U+FFFD, for showing a bad value in a message or a URL. */
export function toWellFormed(s: string): string {
	if (loneSurrogateAt(s) < 0) return s;
	let out = '';
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
		if (pair) out += s[i] + s[++i];
		else out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : s[i];
	}
	return out;
}

/** The rule a string with a lone surrogate at `at` breaks, as messages name it. */
export function illFormedRule(at: number): string {
	return `must be well-formed Unicode (lone surrogate at position ${at})`;
}

/** One problem found by a walk: where (path below the walked value) and the rule broken. */
export interface WalkIssue {
	path: (string | number)[];
	message: string;
}

/** Options of inspect(). */
export interface InspectOptions {
	/** Deepest nesting allowed (the walked value itself is level 0); unlimited when undefined. */
	maxDepth?: number;
	/** Refuse an own `__proto__` key (JSON.parse makes one; zod and object spreads drop it). */
	noProtoKeys?: boolean;
	/** Stop after this many issues (default 1). */
	maxIssues?: number;
	/** Keys whose values are not walked (references to stored ids, which a lookup may need as-is). */
	skipKeys?: ReadonlySet<string>;
}

/**
 * The problems of `value`: lone surrogates in any string or key at any depth, and, when asked,
 * nesting deeper than `maxDepth` or a `__proto__` key. Iterative (an explicit stack), visits each
 * object once, and stops at `maxIssues` (default 1), so a hostile value costs one linear pass.
 */
export function inspect(value: unknown, opts: InspectOptions = {}): WalkIssue[] {
	const issues: WalkIssue[] = [];
	const max = opts.maxIssues ?? 1;
	const seen = new Set<object>();
	// Each entry links to its parent instead of copying its path: a deep chain stays linear.
	const nodes: Step[] = [{ v: value, key: undefined, parent: -1, depth: 0 }];
	const stack = [0];
	const report = (at: number, key: string | number | undefined, message: string) => {
		const path: (string | number)[] = key === undefined ? [] : [key];
		for (let n = at; n > 0; n = nodes[n].parent) path.unshift(nodes[n].key!);
		issues.push({ path, message });
	};
	while (stack.length > 0 && issues.length < max) {
		const at = stack.pop()!;
		const { v, depth } = nodes[at];
		if (typeof v === 'string') {
			const pos = loneSurrogateAt(v);
			if (pos >= 0) report(at, undefined, illFormedRule(pos));
			continue;
		}
		if (v === null || typeof v !== 'object' || seen.has(v)) continue;
		seen.add(v);
		if (opts.maxDepth !== undefined && depth >= opts.maxDepth) {
			report(at, undefined, `must be nested at most ${opts.maxDepth} levels deep`);
			continue;
		}
		const push = (child: unknown, key: string | number) => {
			if (typeof child !== 'string' && (child === null || typeof child !== 'object')) return;
			nodes.push({ v: child, key, parent: at, depth: depth + 1 });
			stack.push(nodes.length - 1);
		};
		if (Array.isArray(v)) {
			for (let i = v.length - 1; i >= 0; i--) push(v[i], i);
			continue;
		}
		const keys = Object.keys(v);
		for (let i = keys.length - 1; i >= 0 && issues.length < max; i--) {
			const k = keys[i];
			const pos = loneSurrogateAt(k);
			if (pos >= 0) report(at, toWellFormed(k), `key ${illFormedRule(pos)}`);
			else if (opts.noProtoKeys && k === '__proto__') report(at, k, 'key "__proto__" is not allowed (JSON objects lose it); rename it');
			else if (!opts.skipKeys?.has(k)) push((v as Record<string, unknown>)[k], k);
		}
	}
	return issues;
}

interface Step {
	v: unknown;
	key: string | number | undefined;
	parent: number;
	depth: number;
}
