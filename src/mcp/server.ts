/**
 * createMemoryServer: one McpServer per connection (the SDK refuses a second transport on the
 * same instance), exposing one profile's tools over one engine. Every tool result is wrapped the
 * same way: the tool's compact text in `content`, its domain data in `structuredContent`; a
 * MemoryError becomes an `isError` result `code: message` (mcp/errors.ts).
 *
 * @example
 * const server = createMemoryServer(engine, 'automem', { actor: 'claude-desktop' });
 * await server.connect(transport);
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MemoryError } from '../core/errors';
import { WELL_FORMED_CHECKED, wellFormedInput, type CallContext } from '../core/schemas';
import type { EngineApi } from '../engine/types';
import { toolError } from './errors';
import { boundIssues } from './render';
import { aiakivProfile } from './profiles/aiakiv';
import { automemProfile } from './profiles/automem';
import { codomyrmexProfile } from './profiles/codomyrmex';
import { memoryMcpProfile } from './profiles/memory-mcp';
import { nativeProfile } from './profiles/native';
import type { Profile } from './profiles/profile';
import type { AnyToolDefinition } from './tool-definition';

/** Every profile a connection can pick, by name. */
export const PROFILES = {
	native: nativeProfile,
	automem: automemProfile,
	aiakiv: aiakivProfile,
	codomyrmex: codomyrmexProfile,
	'memory-mcp': memoryMcpProfile,
} as const satisfies Record<string, Profile>;

/** A profile's name. */
export type ProfileName = keyof typeof PROFILES;

/** The profile names, native first. */
export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

/** True when `name` is a profile (for settings, URL parameters and the relay's --profile). */
export function isProfileName(name: unknown): name is ProfileName {
	return typeof name === 'string' && Object.hasOwn(PROFILES, name);
}

/** Reported in serverInfo on initialize. */
export const SERVER_VERSION = '0.1.0';

/** One finished tools/call, for the activity log and the connections panel. */
export interface ToolCallEvent {
	tool: string;
	ok: boolean;
	ms: number;
}

/** Options of createMemoryServer. */
export interface MemoryServerOptions {
	/** Who the calls come from, in each memory's history; default "<client name> (<profile>)". */
	actor?: string;
	/** Called after every tools/call, including ones refused for bad arguments or an unknown tool. */
	onToolCall?: (e: ToolCallEvent) => void;
}

/**
 * A new McpServer for one connection, with `profile`'s tools over `engine`. Throws
 * MemoryError('invalid_input') for an unknown profile. Connect it to exactly one transport.
 */
export function createMemoryServer(engine: EngineApi, profile: ProfileName = 'native', opts: MemoryServerOptions = {}): McpServer {
	if (!isProfileName(profile))
		throw new MemoryError('invalid_input', `profile: unknown profile ${JSON.stringify(profile)}; expected one of ${PROFILE_NAMES.join(', ')}`);
	const p: Profile = PROFILES[profile];
	const server = new McpServer({ name: 'engram', title: 'Engram memory', version: SERVER_VERSION }, { instructions: p.instructions });
	boundToolErrors(server);
	if (opts.onToolCall) observeToolCalls(server, opts.onToolCall);
	const writeArgs = new Map<string, ArgNames>();
	guardToolArguments(server, writeArgs, opts.onToolCall);
	const ctx = (): CallContext => ({ actor: opts.actor ?? clientActor(server, profile) });
	for (const tool of p.tools) {
		registerTool(server, tool, engine, ctx);
		const names = tool.config.annotations?.readOnlyHint === false ? argNames(tool.config.inputSchema) : undefined;
		if (names) writeArgs.set(tool.name, names);
	}
	return server;
}

function registerTool(server: McpServer, tool: AnyToolDefinition, engine: EngineApi, ctx: () => CallContext): void {
	// Every string of every profile's arguments must be well-formed (core schemas carry the rule
	// already; a profile's own schema gets it here), so no profile can store a lone surrogate.
	const inputSchema = WELL_FORMED_CHECKED.has(tool.config.inputSchema) ? tool.config.inputSchema : wellFormedInput(tool.config.inputSchema);
	const config = { ...tool.config, inputSchema };
	server.registerTool(tool.name, config, async (input: unknown): Promise<CallToolResult> => {
		try {
			return toResult(tool, await tool.run(input, engine, ctx()), input);
		} catch (e) {
			return toolError(e);
		}
	});
}

/** Said first when a write's request_id was already applied: the text then reads as news otherwise. */
function replayNote(input: unknown): string {
	const id = (input as { request_id?: unknown } | null)?.request_id;
	return `Already applied (request_id ${JSON.stringify(id)}): this is the first call's result; nothing was written now.`;
}

/** The uniform wrapping: rendered text block(s) plus the structured data. */
function toResult(tool: AnyToolDefinition, out: Record<string, unknown>, input: unknown): CallToolResult {
	const rendered = tool.render(out, input);
	const text = out.replayed === true ? [replayNote(input), ...(Array.isArray(rendered) ? rendered : [rendered])] : rendered;
	const blocks = (Array.isArray(text) ? text : [text]).map((t) => ({
		type: 'text' as const,
		text: t,
	}));
	return { content: blocks, structuredContent: out };
}

function clientActor(server: McpServer, profile: ProfileName): string {
	const client = server.server.getClientVersion()?.name;
	return client ? `${client} (${profile})` : `mcp (${profile})`;
}

/**
 * Keeps an error result short: the SDK lists one line per invalid value, so 500 bad batch items
 * or 4,096 wrongly typed embedding values made an error of 100–300 KB (render.ts boundIssues).
 */
function boundToolErrors(server: McpServer): void {
	const low = server.server;
	const set = low.setRequestHandler.bind(low);
	low.setRequestHandler = ((schema: unknown, handler: (req: unknown, extra: unknown) => Promise<CallToolResult>) => {
		if (schema !== CallToolRequestSchema) return set(schema as never, handler as never);
		return set(CallToolRequestSchema, (async (req: unknown, extra: unknown) => {
			const res = await handler(req, extra);
			if (!res.isError) return res;
			return { ...res, content: res.content.map((c) => (c.type === 'text' ? { ...c, text: boundIssues(c.text) } : c)) };
		}) as never);
	}) as typeof low.setRequestHandler;
}

/**
 * Times every tools/call at the protocol layer. The SDK validates arguments and looks the tool up
 * before our callback runs, so timing inside the callback would miss exactly the failed calls a
 * person debugging an agent wants to see; wrapping the registered request handler catches all.
 */
function observeToolCalls(server: McpServer, onToolCall: (e: ToolCallEvent) => void): void {
	const low = server.server;
	const set = low.setRequestHandler.bind(low);
	low.setRequestHandler = ((schema: unknown, handler: (req: { params: { name: string } }, extra: unknown) => Promise<CallToolResult>) => {
		if (schema !== CallToolRequestSchema) return set(schema as never, handler as never);
		return set(CallToolRequestSchema, (async (req: { params: { name: string } }, extra: unknown) => {
			const t0 = performance.now();
			let ok = false;
			try {
				const res = await handler(req, extra);
				ok = !res.isError;
				return res;
			} finally {
				onToolCall({ tool: req.params.name, ok, ms: performance.now() - t0 });
			}
		}) as never);
	}) as typeof low.setRequestHandler;
}

/**
 * Answers a tools/call whose `arguments` is not an object (an array, a string, null) with a clean
 * -32602 naming the problem. The SDK parses the whole request against its schema before any
 * handler of ours runs and reports a failure as -32603 with the raw validation dump, so the check
 * sits on the transport, between the wire and the protocol: it wraps the `onmessage` the protocol
 * installs, just before the transport starts delivering.
 */
function guardToolArguments(server: McpServer, writeArgs: ReadonlyMap<string, ArgNames>, onToolCall?: (e: ToolCallEvent) => void): void {
	const connect = server.connect.bind(server);
	server.connect = async (transport: Transport) => {
		const start = transport.start.bind(transport);
		transport.start = async () => {
			const deliver = transport.onmessage;
			if (deliver)
				transport.onmessage = (message, extra) => {
					const refusal = badArguments(message) ?? unknownWriteArgument(message, writeArgs);
					if (!refusal) return deliver(message, extra);
					onToolCall?.({ tool: refusal.tool, ok: false, ms: 0 });
					void transport.send(refusal.reply).catch((e: unknown) => transport.onerror?.(e as Error));
				};
			return start();
		};
		return connect(transport);
	};
}

/** The argument names a write takes, and those of the items of its list arguments (`memories[]`, `associations[]`). */
interface ArgNames {
	keys: ReadonlySet<string>;
	items: ReadonlyMap<string, ReadonlySet<string>>;
}

type ZodDef = { type?: string; shape?: Record<string, unknown>; catchall?: unknown; in?: unknown; innerType?: unknown; element?: unknown };
const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def?: ZodDef } })._zod?.def;

/** The names of a plain object schema (through preprocess pipes); undefined for anything else. */
function objectKeys(schema: unknown): Record<string, unknown> | undefined {
	const def = defOf(schema);
	if (def?.type === 'pipe') return objectKeys(def.in);
	if (def?.type === 'optional') return objectKeys(def.innerType);
	if (def?.type !== 'object' || !def.shape || def.catchall !== undefined) return undefined;
	return def.shape;
}

/** ArgNames of an input schema; undefined when it is not a plain object schema. */
function argNames(schema: unknown): ArgNames | undefined {
	const shape = objectKeys(schema);
	if (!shape) return undefined;
	const items = new Map<string, ReadonlySet<string>>();
	for (const [k, v] of Object.entries(shape)) {
		let def = defOf(v);
		while (def?.type === 'optional') def = defOf(def.innerType);
		const item = def?.type === 'array' ? objectKeys(def.element) : undefined;
		if (item) items.set(k, new Set(Object.keys(item)));
	}
	return { keys: new Set(Object.keys(shape)), items };
}

/** The first unknown argument of `args` (top level, then list items) with the names allowed there. */
function firstUnknown(args: Record<string, unknown>, names: ArgNames): { path: string; allowed: ReadonlySet<string>; where: string } | undefined {
	for (const k of Object.keys(args)) if (!names.keys.has(k)) return { path: k, allowed: names.keys, where: '' };
	for (const [k, allowed] of names.items) {
		const list = args[k];
		if (!Array.isArray(list)) continue;
		for (let i = 0; i < list.length; i++) {
			const item: unknown = list[i];
			if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
			const bad = Object.keys(item).find((key) => !allowed.has(key));
			if (bad !== undefined) return { path: `${k}.${i}.${bad}`, allowed, where: `each of ${k} ` };
		}
	}
	return undefined;
}

/**
 * A write tool's call naming an argument the tool does not take ("tag" for tags, "id" in an
 * update, at top level or in an item of `memories[]`) is refused, naming it: the SDK's schemas
 * drop unknown keys, so the write went ahead without what the agent meant to write, and said
 * "nothing changed" or stored the memory untagged. Answered as the SDK answers any invalid
 * arguments (a tool result with isError).
 */
function unknownWriteArgument(m: JSONRPCMessage, writeArgs: ReadonlyMap<string, ArgNames>): { tool: string; reply: JSONRPCMessage } | undefined {
	if (!('method' in m) || m.method !== 'tools/call' || !('id' in m)) return undefined;
	const params = m.params as { name?: unknown; arguments?: Record<string, unknown> } | undefined;
	const tool = typeof params?.name === 'string' ? params.name : undefined;
	const names = tool === undefined ? undefined : writeArgs.get(tool);
	if (!names || !params?.arguments) return undefined;
	const bad = firstUnknown(params.arguments, names);
	if (!bad) return undefined;
	const path = bad.path.slice(0, 80);
	const text = `MCP error ${ErrorCode.InvalidParams}: Input validation error: Invalid arguments for tool ${tool}: unknown argument ${JSON.stringify(path)}: ${bad.where || `${tool} `}takes ${[...bad.allowed].join(', ')} at ${path}`;
	return { tool: tool!, reply: { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text }], isError: true } } };
}

/** The -32602 reply for a tools/call request whose `arguments` is present but not an object. */
function badArguments(m: JSONRPCMessage): { tool: string; reply: JSONRPCMessage } | undefined {
	if (!('method' in m) || m.method !== 'tools/call' || !('id' in m)) return undefined;
	const params = m.params as { name?: unknown; arguments?: unknown } | undefined;
	const args = params?.arguments;
	if (args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args))) return undefined;
	const got = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
	const tool = typeof params?.name === 'string' ? params.name : '?';
	return {
		tool,
		reply: {
			jsonrpc: '2.0',
			id: m.id,
			error: {
				code: ErrorCode.InvalidParams,
				message: `Invalid params: arguments must be an object of named arguments, e.g. {"memory_id": "…"} (got ${got})`,
			},
		},
	};
}
