/**
 * The answer to a request a transport cannot deliver because it is not a valid JSON-RPC request
 * (`params` a string, `_meta` a number…). Without one the client would wait for ever: the SDK's
 * server never sees the message, so nothing else answers it. Shared by the relay and postMessage
 * transports; a notification or a message without a usable id gets no answer (there is no one to
 * give it to).
 */
import { ErrorCode, JSONRPCRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

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
