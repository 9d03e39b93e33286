/**
 * The desktop client that started this relay, on stdin/stdout. It outlives role changes: while
 * this process owns the port its messages go to the local hub; while it has joined another relay
 * they go over the socket; in between they wait in a queue. Its handshake is remembered here so
 * whichever relay serves it next can replay it to the tab.
 */
import type { Readable, Writable } from 'node:stream';
import type { Handshake } from '../src/mcp/transports/relay-protocol';
import { classify, vet, type Message } from './jsonrpc';
import { lineWriter, readLines } from './stdio';

/** The stdio client and where its messages currently go. */
export class StdioClient {
	readonly handshake: Handshake = { initialized: false };
	readonly write: (m: Message | Message[]) => void;
	#route?: (value: unknown) => void;
	#queue: unknown[] = [];

	/**
	 * `log` hears when the client stops reading its answers: its input is then paused until they
	 * drain (back-pressure), so a client that never reads cannot pile answers up in this process,
	 * which may be serving the tab and other clients too.
	 */
	constructor(input: Readable, output: Writable, log: (line: string) => void = () => {}) {
		const write = lineWriter(output);
		this.write = (m) => {
			write(m);
			if (!output.writableNeedDrain || input.isPaused()) return;
			input.pause();
			log(`the stdio client is not reading its answers (${output.writableLength} bytes waiting): reading no more of its requests until it does`);
			output.once('drain', () => input.resume());
		};
		readLines(input, this.write, (value) => this.#receive(value));
	}

	/** Sends the client's messages to `route` from now on (queued ones first); undefined queues. */
	routeTo(route: ((value: unknown) => void) | undefined): void {
		this.#route = route;
		if (!route) return;
		const queued = this.#queue;
		this.#queue = [];
		for (const v of queued) route(v);
	}

	#receive(value: unknown): void {
		// Refused here, before it is remembered or sent anywhere (a joined relay re-serialises it).
		const refusal = vet(value);
		if (refusal !== undefined) return void (refusal && this.write(refusal));
		for (const item of Array.isArray(value) ? value : [value]) this.#remember(item);
		if (this.#route) this.#route(value);
		else this.#queue.push(value);
	}

	#remember(item: unknown): void {
		const c = classify(item);
		if (c.kind === 'request' && c.method === 'initialize') {
			this.handshake.initialize = item;
			this.handshake.initialized = false;
		}
		if (c.kind === 'notification' && c.method === 'notifications/initialized') this.handshake.initialized = true;
	}
}
