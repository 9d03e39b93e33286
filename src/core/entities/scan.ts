/**
 * The state every extraction pass shares: the text, a claim mask so no span is taken twice, and
 * the mentions found so far.
 */
import { GAZETTEER, plainKey } from './gazetteer';
import type { EntityType } from './types';

/** A mention found in the text, before merging. */
export interface Mention {
	name: string;
	type: EntityType;
	pos: number;
}

/** Scan state: the text, a claim mask (1 = taken by an entity, 2 = inside code) and mentions. */
export interface Scan {
	text: string;
	mask: Uint8Array;
	out: Mention[];
}

/** Whether [start, end) is unclaimed (with `allowCode`, code regions count as free). */
export function isFree(scan: Scan, start: number, end: number, allowCode = true): boolean {
	for (let i = start; i < end; i++) {
		const m = scan.mask[i];
		if (m === 1 || (m === 2 && !allowCode)) return false;
	}
	return true;
}

/** Marks [start, end) as taken (1) or as code (2). */
export function claim(scan: Scan, start: number, end: number, value = 1): void {
	scan.mask.fill(value, start, end);
}

/** Records a mention and claims its span. */
export function emit(scan: Scan, name: string, type: EntityType, pos: number, end = pos + name.length) {
	scan.out.push({ name, type, pos });
	claim(scan, pos, end);
}

/** Gazetteer type for a special token ("Node.js", "Fly.io"), if it is a known name. */
export function known(token: string): { display: string; type: EntityType } | undefined {
	return GAZETTEER.get(plainKey(token));
}
