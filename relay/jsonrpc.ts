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
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		return { kind: 'invalid', reason: 'a JSON-RPC message must be an object' };
	const m = value as Record<string, unknown>;
	const id = isId(m.id) ? m.id : undefined;
	if (m.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
	if (typeof m.method === 'string')
		return id === undefined
			? { kind: 'notification', method: m.method }
			: { kind: 'request', id, method: m.method };
	if (id !== undefined && ('result' in m || 'error' in m)) return { kind: 'response', id };
	if ('error' in m && m.id === undefined) return { kind: 'response', id: '' };
	return {
		kind: 'invalid',
		id,
		reason: 'a message needs a method (request, notification) or a result/error (response)',
	};
}

function isId(v: unknown): v is Id {
	return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** A map key for an id that keeps 1 and "1" apart. */
export function idKey(id: Id): string {
	return `${typeof id === 'number' ? 'n' : 's'}:${id}`;
}

/** A JSON-RPC error response; `id` undefined for errors about unreadable input. */
export function errorResponse(
	id: Id | undefined,
	code: number,
	message: string,
	data?: unknown,
): Message {
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
