/**
 * The little the relay needs to know about JSON-RPC: what kind a message is, its id, and how to
 * write an error response. Classification reads only `jsonrpc`, `method`, `id`, `result` and
 * `error`, never params or results: the tab's MCP server validates the rest.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC id as MCP allows it. */
export type Id = string | number;

/** A JSON-RPC message, seen only as far as the relay needs. */
export type Message = Record<string, unknown> & { jsonrpc: '2.0' };

/** The kind of a message, with its id and method where it has them. */
export type Classified =
	| { kind: 'request'; id: Id; method: string }
	| { kind: 'notification'; method: string }
	| { kind: 'response'; id: Id }
	| { kind: 'invalid'; id?: Id; reason: string };

/** Classifies one parsed JSON value as a JSON-RPC message. */
export function classify(value: unknown): Classified {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'invalid', reason: 'a JSON-RPC message must be an object' };
	const m = value as Record<string, unknown>;
	const id = isId(m.id) ? m.id : undefined;
	if (m.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
	// A request whose id is an object, an array, a boolean or null is not a notification: passed on
	// as one, the tab would drop it and the client would wait for its answer forever.
	if (typeof m.method === 'string' && m.id !== undefined && id === undefined)
		return { kind: 'invalid', reason: `id must be a string or a number, not ${kindOf(m.id)}` };
	if (typeof m.method === 'string') return id === undefined ? { kind: 'notification', method: m.method } : { kind: 'request', id, method: m.method };
	if (id !== undefined && ('result' in m || 'error' in m)) return { kind: 'response', id };
	if ('error' in m && m.id === undefined) return { kind: 'response', id: '' };
	return {
		kind: 'invalid',
		id,
		reason: 'a message needs a method (request, notification) or a result/error (response)',
	};
}

/** `null`, `an array`, `an object`, `a boolean`: what a value is, for an error message. */
function kindOf(v: unknown): string {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'an array';
	return /^[aeiou]/.test(typeof v) ? `an ${typeof v}` : `a ${typeof v}`;
}

function isId(v: unknown): v is Id {
	return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** A map key for an id that keeps 1 and "1" apart. */
export function idKey(id: Id): string {
	return `${typeof id === 'number' ? 'n' : 's'}:${id}`;
}

/** A JSON-RPC error response; `id` undefined for errors about unreadable input. */
export function errorResponse(id: Id | undefined, code: number, message: string, data?: unknown): Message {
	const error: Record<string, unknown> = { code, message };
	if (data !== undefined) error.data = data;
	return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

/** A JSON-RPC result response. */
export function resultResponse(id: Id, result: Record<string, unknown>): Message {
	return { jsonrpc: '2.0', id, result };
}

/** Error codes the relay uses, beside the standard ones. */
export const RELAY_ERROR = {
	/** No Engram tab is paired (or it went away while a call was in flight). */
	notConnected: ErrorCode.ConnectionClosed,
	invalidRequest: ErrorCode.InvalidRequest,
	parseError: ErrorCode.ParseError,
	internal: ErrorCode.InternalError,
} as const;

/**
 * Deepest nesting the relay passes on (objects and arrays, the message itself is level 1). Real
 * MCP traffic stays far below it; far deeper values overflow the stack of whatever recursive code
 * meets them next (JSON.stringify, schema validators), on the relay or in the tab.
 */
export const MAX_MESSAGE_DEPTH = 64;

/** True when `value` nests objects/arrays more than `max` levels deep. Iterative: any depth is safe. */
export function nestingExceeds(value: unknown, max = MAX_MESSAGE_DEPTH): boolean {
	const stack: [unknown, number][] = [[value, 1]];
	while (stack.length > 0) {
		const [v, depth] = stack.pop()!;
		if (typeof v !== 'object' || v === null) continue;
		if (depth > max) return true;
		for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
	}
	return false;
}

/** JSON text of `value`, or an Error (never throws: a cycle or a stack overflow is reported). */
export function safeStringify(value: unknown): string | Error {
	try {
		return JSON.stringify(value);
	} catch (e) {
		return new Error(`could not serialise a message: ${(e as Error).message}`);
	}
}

/** The id of a message as far as it can be read without trusting it. */
function idOf(value: unknown): Id | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const id = (value as { id?: unknown }).id;
	return isId(id) ? id : undefined;
}

/**
 * Checks what a client sent before anything else touches it. Returns undefined when it may pass;
 * otherwise the answer refusing it (one error per request, or null when nothing can be answered,
 * e.g. a notification): a message nested more than MAX_MESSAGE_DEPTH deep, or a batch with an item
 * that is, or with two requests sharing an id (their answers could not be told apart).
 */
export function vet(value: unknown): Message | Message[] | null | undefined {
	const deep = `Invalid Request: the message is nested more than ${MAX_MESSAGE_DEPTH} levels deep; engram-relay does not forward it (flatten metadata and arguments)`;
	if (!Array.isArray(value)) {
		if (typeof value !== 'object' || value === null || !nestingExceeds(value)) return undefined;
		const id = idOf(value);
		return id === undefined ? null : errorResponse(id, RELAY_ERROR.invalidRequest, deep);
	}
	const problems = new Map<unknown, string>();
	const seen = new Map<string, unknown>();
	for (const item of value) {
		if (typeof item === 'object' && item !== null && nestingExceeds(item)) problems.set(item, deep);
		const c = classify(item);
		if (c.kind !== 'request') continue;
		const first = seen.get(idKey(c.id));
		if (first !== undefined) {
			const dup = `Invalid Request: id ${JSON.stringify(c.id)} appears more than once in this batch; ids in a batch must be unique, so the batch was refused`;
			problems.set(first, problems.get(first) ?? dup);
			problems.set(item, problems.get(item) ?? dup);
		} else seen.set(idKey(c.id), item);
	}
	if (problems.size === 0) return undefined;
	const firstProblem = [...problems.values()][0]!;
	const answers: Message[] = [];
	for (const item of value) {
		const id = idOf(item);
		if (id === undefined) continue;
		const own = problems.get(item);
		answers.push(
			errorResponse(id, RELAY_ERROR.invalidRequest, own ?? `Invalid Request: refused with its batch (${firstProblem.replace(/^Invalid Request: /, '')})`),
		);
	}
	return answers.length ? answers : null;
}

/**
 * The error for a request that was forwarded and will never be answered (`why`: what went away).
 * Truthful: a tool call may have been applied (the tab can commit a write after its relay died),
 * so it says so and how to find out; anything else changes nothing and can simply be retried.
 */
export function lostAnswer(id: Id, method: string | undefined, why: string): Message {
	const text =
		method === 'tools/call'
			? `${why} before this call was answered: unknown whether it was applied. Check with get_memory (or recall_memory), or resend it with the same request_id.`
			: `${why} before this request was answered; it changes nothing, so retry it.`;
	return errorResponse(id, RELAY_ERROR.notConnected, text);
}

/**
 * Errors refusing every request in `value` (one message or a batch) with `message`, in order; a
 * notification or a message with no usable id gets none. Empty when there is no one to answer.
 */
export function refuseAll(value: unknown, message: string): Message[] {
	const answers: Message[] = [];
	for (const item of Array.isArray(value) ? value : [value]) {
		const id = idOf(item);
		if (id !== undefined && typeof (item as { method?: unknown }).method === 'string') answers.push(errorResponse(id, RELAY_ERROR.invalidRequest, message));
	}
	return answers;
}
