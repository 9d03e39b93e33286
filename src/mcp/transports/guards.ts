/**
 * What the page's server transports do with a client that misbehaves, so it gets an answer and
 * cannot hold Engram for everyone else:
 * - a request that is not a valid JSON-RPC request (`params` a string, `_meta` a number…) is
 *   answered with Invalid Request: the SDK's server never sees it, so nothing else would, and the
 *   client would wait for ever (a notification or a message without a usable id gets nothing);
 * - a client's requests waiting for their answers are capped (`InFlight`): the engine is one worker
 *   serving every agent and the app, so one client sending thousands at once would make all of
 *   them wait behind its calls.
 */
import { ErrorCode, JSONRPCRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_IN_FLIGHT } from './relay-protocol';

type Id = string | number;
const isId = (id: unknown): id is Id => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
const key = (id: Id) => `${typeof id === 'number' ? 'n' : 's'}:${id}`;

/** Counts one client's requests until their answers are sent; refuses those over MAX_IN_FLIGHT. */
export class InFlight {
	readonly #ids = new Set<string>();

	/**
	 * Call with every valid message from the client. Returns the refusal to send back for a request
	 * over the cap (not to be delivered); undefined to deliver it.
	 */
	admit(m: JSONRPCMessage): JSONRPCMessage | undefined {
		if ('method' in m && m.method === 'notifications/cancelled') {
			// The SDK sends no answer to a cancelled request: its slot is free now.
			const cancelled = (m.params as { requestId?: unknown } | undefined)?.requestId;
			if (isId(cancelled)) this.#ids.delete(key(cancelled));
		}
		if (!('method' in m) || !('id' in m) || !isId(m.id)) return undefined;
		if (this.#ids.size < MAX_IN_FLIGHT) return void this.#ids.add(key(m.id));
		return {
			jsonrpc: '2.0',
			id: m.id,
			error: {
				code: ErrorCode.InternalError,
				message: `Too many requests in flight: this client already has ${MAX_IN_FLIGHT} requests waiting for Engram (the limit per client). Nothing was done for this one; wait for some answers, then resend it.`,
			},
		};
	}

	/** Call with every message sent to the client: an answer frees its request's slot. */
	answered(m: JSONRPCMessage): void {
		if (('result' in m || 'error' in m) && 'id' in m && isId(m.id)) this.#ids.delete(key(m.id));
	}
}

/** An Invalid Request error naming the field and the rule, or undefined when nothing can be answered. */
export function invalidRequestAnswer(payload: unknown): JSONRPCMessage | undefined {
	if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
	const { id, method } = payload as { id?: unknown; method?: unknown };
	if (typeof method !== 'string' || !(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return undefined;
	const parsed = JSONRPCRequestSchema.safeParse(payload);
	const issue = parsed.success ? undefined : parsed.error.issues[0];
	const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
	return {
		jsonrpc: '2.0',
		id,
		error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${where}${issue?.message ?? 'not a JSON-RPC request'}` },
	};
}
