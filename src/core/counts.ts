/**
 * Counting helpers. Counts keyed by what people and agents name things (tags, scopes, sources, types). A plain
 * `{}` inherits `constructor`, `toString` and `__proto__`: a tag named "constructor" counted as
 * `Object + 1` (a string), which made memory_stats fail its output check for every caller, and a
 * "__proto__" one was never counted. These records have no prototype, so every name is a key.
 */

/** An empty count record with no inherited keys. */
export function countRecord(): Record<string, number> {
	return Object.create(null) as Record<string, number>;
}

/** Adds `by` to `rec[key]` (a record from `countRecord`). */
export function bump(rec: Record<string, number>, key: string, by = 1): void {
	rec[key] = (rec[key] ?? 0) + by;
}

/**
 * "1 memory", "3 memories": a count and its noun, singular for one. `shown` is how the number is
 * written (the UI's words pass it grouped for the person's locale; tool text keeps plain digits).
 */
export function counted(n: number, one: string, many = `${one}s`, shown = String(n)): string {
	return `${shown} ${n === 1 ? one : many}`;
}
