/** Rounding for output: scores and cosines shown to agents keep a few decimals, no float noise. */

/** `x` rounded to 3 decimals (0.123456 → 0.123). */
export function round3(x: number): number {
	return Math.round(x * 1000) / 1000;
}

/** `x` rounded to 4 decimals (codomyrmex's precision). */
export function round4(x: number): number {
	return Math.round(x * 10_000) / 10_000;
}
