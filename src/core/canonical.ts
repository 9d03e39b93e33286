/**
 * A value's canonical JSON (keys sorted, undefined members left out) and a fast synchronous
 * string hash: what request ids (engine/request-ids.ts) and sync fingerprints (sync/records.ts)
 * compare, so equal values give equal keys whatever their key order.
 */

/** JSON with object keys sorted and undefined members dropped (undefined in an array is null). */
export function canonicalJson(v: unknown): string {
	if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
	if (v !== null && typeof v === 'object') {
		const keys = Object.keys(v)
			.filter((k) => (v as Record<string, unknown>)[k] !== undefined)
			.sort();
		return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
	}
	return JSON.stringify(v) ?? 'null';
}

/** cyrb53: a 53-bit hash of a string's UTF-16 units, as a non-negative integer. */
export function cyrb53(s: string, seed = 0): number {
	let h1 = 0xdeadbeef ^ seed;
	let h2 = 0x41c6ce57 ^ seed;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 2654435761);
		h2 = Math.imul(h2 ^ c, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
