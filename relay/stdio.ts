/**
 * The stdio side: newline-delimited JSON on stdin and stdout, framed like the SDK's `ReadBuffer`
 * but without parsing messages into typed objects (the relay passes them through). A line may be
 * a JSON-RPC batch (an array). stdout carries JSON-RPC and nothing else; a line that is not JSON
 * is answered with a parse error.
 */
import type { Readable, Writable } from 'node:stream';
import { RELAY_ERROR, classify, errorResponse, refuseAll, safeStringify, type Message } from './jsonrpc';
import { trace } from './trace';

/** Longest inbound line (a 500-memory batch of long memories fits). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Why a line with bytes that are not UTF-8 is refused. */
export const NOT_UTF8 =
	'Invalid Request: the message is not valid UTF-8; engram-relay does not forward text it would have to alter (send UTF-8, with any binary data encoded, e.g. base64)';

/**
 * The text of `buf`, and whether it was valid UTF-8. Invalid bytes read as U+FFFD, as Node would
 * read them, only so the ids of the requests can be found and answered: such a message is refused,
 * never forwarded with its text silently changed.
 */
export function decodeUtf8(buf: Buffer): { text: string; valid: boolean } {
	try {
		return { text: strictUtf8.decode(buf), valid: true };
	} catch {
		return { text: buf.toString('utf8'), valid: false };
	}
}

/** Why a line over MAX_LINE_BYTES is refused. */
export const TOO_LONG = `Invalid Request: the message is larger than ${MAX_LINE_BYTES / 1024 / 1024} MiB (the longest line engram-relay reads); it was not forwarded: send fewer or smaller memories per call`;

/** Bytes kept of a line too long to read, to find its id: its start, and its end. */
const HEAD_BYTES = 4096;
const TAIL_BYTES = 512;

/** A JSON-RPC id as JSON text: a number, or a string of at most 200 characters. */
const ID = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"jsonrpc":"2.0","id":ID,"method":…` — the usual order. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*"method"\s*:`);
/** `…,"id":ID}` at the very end of a line that starts `{"method":` — the SDK's order. */
const ID_LAST = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of a request too long to parse, read from its first and last bytes when the line has
 * one of the two usual shapes (so its client hears at once instead of waiting out a timeout);
 * undefined otherwise (a batch, a response, keys in another order).
 */
export function idOfTooLong(head: Buffer, tail: Buffer): string | number | undefined {
	const start = head.toString('utf8');
	const m = ID_FIRST.exec(start) ?? (/^\s*\{\s*"method"\s*:/.test(start) ? ID_LAST.exec(tail.toString('utf8')) : null);
	if (!m) return undefined;
	try {
		const id = JSON.parse(m[1]!) as unknown;
		return typeof id === 'string' || typeof id === 'number' ? id : undefined;
	} catch {
		return undefined;
	}
}

/** Reads JSON values line by line from a stream. */
export class LineReader {
	#chunks: Buffer[] = [];
	#size = 0;
	/** Set while an oversized line is skipped, up to its newline: its first and last bytes, to find its id. */
	#skipping?: { head: Buffer; tail: Buffer };

	constructor(
		private readonly onValue: (value: unknown) => void,
		/** `value`: the line as read, when it parsed but is refused (its requests get the error). */
		private readonly onBadLine: (reason: string, value?: unknown) => void,
	) {}

	/** Feeds a chunk; emits every complete line in it. */
	push(chunk: Buffer): void {
		let start = 0;
		let nl = chunk.indexOf(10);
		while (nl !== -1) {
			const last = chunk.subarray(start, nl);
			if (!this.#skipping && this.#size + last.length > MAX_LINE_BYTES) this.#skip(last);
			else if (!this.#skipping) this.#line(Buffer.concat([...this.#chunks, last]));
			else this.#keepTail(last);
			if (this.#skipping) this.#dropped(this.#skipping);
			this.#skipping = undefined;
			this.#chunks = [];
			this.#size = 0;
			start = nl + 1;
			nl = chunk.indexOf(10, start);
		}
		if (start < chunk.length) this.#append(chunk.subarray(start));
	}

	#append(part: Buffer): void {
		if (this.#skipping) return this.#keepTail(part);
		if (this.#size + part.length > MAX_LINE_BYTES) return this.#skip(part);
		this.#size += part.length;
		this.#chunks.push(part);
	}

	/** Stops collecting the current line, keeping only its first and last bytes. */
	#skip(part: Buffer): void {
		const first: Buffer[] = [];
		let n = 0;
		for (const p of [...this.#chunks, part]) {
			if (n >= HEAD_BYTES) break;
			first.push(p.subarray(0, HEAD_BYTES - n));
			n += first.at(-1)!.length;
		}
		const head = Buffer.concat(first);
		this.#chunks = [];
		this.#size = 0;
		this.#skipping = { head, tail: Buffer.alloc(0) };
		this.#keepTail(part);
	}

	#keepTail(part: Buffer): void {
		const s = this.#skipping!;
		s.tail = Buffer.from(Buffer.concat([s.tail, part.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES));
	}

	/** Answers a line that was too long: its request gets the error when its id could be read. */
	#dropped({ head, tail }: { head: Buffer; tail: Buffer }): void {
		const id = idOfTooLong(head, tail);
		this.onBadLine(TOO_LONG, id === undefined ? undefined : { jsonrpc: '2.0', id, method: '' });
	}

	#line(buf: Buffer): void {
		const decoded = decodeUtf8(buf);
		const text = decoded.text.replace(/\r$/, '');
		if (text.trim() === '') return;
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			return this.onBadLine(decoded.valid ? 'Parse error: a line on stdin is not JSON' : NOT_UTF8);
		}
		if (!decoded.valid) return this.onBadLine(NOT_UTF8, value);
		this.onValue(value);
	}
}

/**
 * Writes JSON-RPC messages to stdout, one per line. A message that cannot be serialised (it never
 * should: messages are vetted on the way in) is replaced by an error for its request, if any.
 */
export function lineWriter(out: Writable): (m: Message | Message[]) => void {
	return (m) => {
		const text = safeStringify(m);
		if (!(text instanceof Error)) {
			trace('stdout');
			return void out.write(`${text}\n`);
		}
		const c = classify(m);
		if (c.kind === 'response') out.write(`${JSON.stringify(errorResponse(c.id, RELAY_ERROR.internal, text.message))}\n`);
	};
}

/** Wires stdin to `onValue`; answers unreadable lines with a JSON-RPC error through `write`. */
export function readLines(input: Readable, write: (m: Message | Message[]) => void, onValue: (value: unknown) => void): void {
	const reader = new LineReader(onValue, (reason, value) => {
		if (value === undefined) return write(errorResponse(undefined, RELAY_ERROR.parseError, reason));
		const answers = refuseAll(value, reason);
		if (answers.length) write(Array.isArray(value) ? answers : answers[0]!);
	});
	input.on('data', (chunk: Buffer) => {
		trace('stdin');
		reader.push(chunk);
	});
}
