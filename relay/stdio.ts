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

/** Reads JSON values line by line from a stream. */
export class LineReader {
	#chunks: Buffer[] = [];
	#size = 0;
	/** Set after an oversized line was dropped: the rest of it, up to its newline, is skipped too. */
	#skipping = false;

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
			if (!this.#skipping) this.#line(Buffer.concat([...this.#chunks, chunk.subarray(start, nl)]));
			this.#skipping = false;
			this.#chunks = [];
			this.#size = 0;
			start = nl + 1;
			nl = chunk.indexOf(10, start);
		}
		if (start < chunk.length) this.#append(chunk.subarray(start));
	}

	#append(part: Buffer): void {
		if (this.#skipping) return;
		this.#size += part.length;
		if (this.#size > MAX_LINE_BYTES) {
			this.#chunks = [];
			this.#size = 0;
			this.#skipping = true;
			return this.onBadLine(`a line exceeded ${MAX_LINE_BYTES} bytes and was dropped`);
		}
		this.#chunks.push(part);
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
