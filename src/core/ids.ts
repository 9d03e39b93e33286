/**
 * Memory ids: time-ordered UUIDs (version 7, RFC 9562). A new memory's id sorts after every id
 * this process made before it, so IndexedDB appends its row and the index
 * entries that point at it at the end of their key ranges instead of at random places in a
 * growing tree. Writing 100k memory-shaped rows in Chromium takes 12–15% less time with ordered
 * keys, at a cost per row that grows less as the store fills (`npx tsx bench/idb-keys.ts`), and
 * the app's 100k import 15% less (docs/BENCHMARKS.md).
 *
 * Layout: 48 bits of Unix milliseconds, the version nibble 7, a 12-bit counter (RFC 9562 §6.2,
 * method 1) that orders ids made within one millisecond, the variant bits 10, then 62 random bits.
 * When the counter runs out, the timestamp steps one millisecond ahead of the clock; it never
 * goes back, even when the clock does.
 *
 * @example
 * newMemoryId(); // '0193a4c2-7f1e-7000-9b3c-5d2e8f4a1c07'
 */

let lastMs = 0;
let counter = 0;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Each byte's two hex digits. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => hex(b, 2));

/**
 * Random bytes drawn 4 KiB at a time: one `getRandomValues` call per 512 ids instead of one each
 * (in a browser worker the call alone cost about 5 µs, half of making an id).
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** A new time-ordered UUID (version 7), greater than every one this process made before it. */
export function newMemoryId(now: number = Date.now()): string {
	if (now > lastMs) {
		lastMs = now;
		// A random start in the lower half leaves room for 2,048 ids in the same millisecond.
		counter = Math.floor(Math.random() * 0x800);
	} else if (++counter > 0xfff) {
		lastMs += 1;
		counter = 0;
	}
	if (poolAt + 8 > pool.length) {
		crypto.getRandomValues(pool);
		poolAt = 0;
	}
	const i = poolAt;
	poolAt += 8;
	const time = hex(lastMs, 12);
	const variant = BYTE_HEX[(pool[i] & 0x3f) | 0x80];
	return `${time.slice(0, 8)}-${time.slice(8)}-7${hex(counter, 3)}-${variant}${BYTE_HEX[pool[i + 1]]}-${BYTE_HEX[pool[i + 2]]}${BYTE_HEX[pool[i + 3]]}${BYTE_HEX[pool[i + 4]]}${BYTE_HEX[pool[i + 5]]}${BYTE_HEX[pool[i + 6]]}${BYTE_HEX[pool[i + 7]]}`;
}
