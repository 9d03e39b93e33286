/**
 * A scripted agent (no LLM) that uses Engram as its long-term memory, to show the integration in
 * one file. Engram runs in the iframe next to it; the agent connects with the MCP SDK `Client`
 * over MCP-B's `IframeParentTransport` (postMessage, channel `mcp-iframe`). Engram admits this
 * page because it has the same origin; a page on another origin would wait until the person
 * approves it in Engram's Connections screen.
 *
 * The script: list the tools, store a few memories in one batch, link two of them, recall by
 * meaning, and read one memory back with its related memories. Everything it stores goes to its
 * own scope, `demo` (tagged `demo` too), and it recalls only there: the person's own memories are
 * neither mixed with the demo's nor read by it, and one button removes the demo's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { IframeParentTransport } from '@mcp-b/transports';
import { trustingValidator } from '../mcp/trusting-validator';
import '../core/zod-jitless';

/** What a tool returns to an agent: structured data plus a text rendering. */
interface ToolResult {
	isError?: boolean;
	structuredContent?: Record<string, unknown>;
	content?: { type: string; text?: string }[];
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const log = $('log');
/** The scope (and tag) of everything the demo stores. */
const DEMO_SCOPE = 'demo';
const status = $('status');

/** Appends one step to the visible log, optionally with a JSON or text detail. */
function step(text: string, detail?: unknown, kind: 'ok' | 'error' = 'ok'): void {
	const li = document.createElement('li');
	li.className = kind;
	li.dataset.testid = 'demo-step';
	li.textContent = text;
	if (detail !== undefined) {
		const pre = document.createElement('pre');
		pre.textContent = typeof detail === 'string' ? detail : JSON.stringify(detail, null, 2);
		li.append(pre);
	}
	log.append(li);
	li.scrollIntoView({ block: 'nearest' });
}

/** Calls a tool and returns its structured result; a tool error becomes an exception. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
	const result = (await client.callTool({ name, arguments: args })) as ToolResult;
	const text = result.content?.find((c) => c.type === 'text')?.text ?? '';
	if (result.isError) throw new Error(`${name}: ${text}`);
	return result.structuredContent ?? { text };
}

/** Connects to the Engram app in the iframe once it has loaded. */
async function connect(iframe: HTMLIFrameElement): Promise<Client> {
	const transport = new IframeParentTransport({ iframe, targetOrigin: location.origin });
	// The demo page runs under the app's CSP (no eval), so not the SDK's default Ajv validator.
	const client = new Client({ name: 'Engram demo agent', version: '1.0.0' }, { jsonSchemaValidator: trustingValidator });
	await client.connect(transport);
	return client;
}

/** The scripted session. */
async function runScript(client: Client): Promise<void> {
	const { tools } = await client.listTools();
	step(`Engram offers ${tools.length} tools`, tools.map((t) => t.name).join(', '));

	const stored = await call(client, 'store_memory', {
		memories: [
			{
				content: 'The user prefers concise answers with code first and explanations after.',
				type: 'Preference',
				tags: ['demo', 'style'],
				importance: 0.8,
				scope: DEMO_SCOPE,
			},
			{
				content: 'Decision: the team moved the billing service from MongoDB to PostgreSQL because invoices need ACID transactions.',
				type: 'Decision',
				tags: ['demo', 'billing'],
				importance: 0.9,
				scope: DEMO_SCOPE,
			},
			{
				content: 'Deploys to production happen on Tuesdays after the 10:00 stand-up; never deploy on Fridays.',
				type: 'Habit',
				tags: ['demo', 'ops'],
				scope: DEMO_SCOPE,
			},
			{
				content: 'Invoice totals were off by a cent because of floating-point rounding; amounts are now stored as integer cents.',
				type: 'Insight',
				tags: ['demo', 'billing'],
				scope: DEMO_SCOPE,
			},
		],
	});
	const results = stored.results as { memory_id: string; status: string }[];
	step(`Stored ${stored.stored_count} memories (${stored.duplicate_count} already known)`, results.map((r) => `${r.status}: ${r.memory_id}`).join('\n'));

	const [, decision, , insight] = results.map((r) => r.memory_id);
	const linked = await call(client, 'associate_memories', {
		memory1_id: insight,
		memory2_id: decision,
		type: 'DERIVED_FROM',
		strength: 0.8,
		transformation: 'the rounding bug surfaced while checking invoices after the move to PostgreSQL',
	});
	step(`Linked the insight to the decision: ${linked.message}`);

	await recall(client, 'why did we switch databases for invoices?');

	const got = await call(client, 'get_memory', { memory_id: decision });
	const related = (got.related_memories as { relation: string; similarity: number; snippet: string }[]) ?? [];
	step(
		`Read the decision back (${got.age}); ${related.length} related`,
		related.map((r) => `${r.relation} ${r.similarity.toFixed(2)}  ${r.snippet}`).join('\n') || 'none',
	);
}

/** Recalls by meaning and logs the ranked results with their scores. */
async function recall(client: Client, query: string): Promise<void> {
	const out = await call(client, 'recall_memory', { query, limit: 3, scope: DEMO_SCOPE });
	const hits = out.results as { score: number; memory: { content: string } }[];
	step(
		`Recalled “${query}”: ${hits.length} result${hits.length === 1 ? '' : 's'}`,
		hits.map((h) => `${h.score.toFixed(2)}  ${h.memory.content}`).join('\n') || 'nothing yet',
	);
}

async function main(): Promise<void> {
	const iframe = $<HTMLIFrameElement>('engram');
	const run = $<HTMLButtonElement>('run');
	const question = $<HTMLInputElement>('question');
	const askButton = $<HTMLButtonElement>('ask-button');
	const clear = $<HTMLButtonElement>('clear');
	if (!iframe.contentDocument || iframe.contentDocument.readyState !== 'complete')
		await new Promise((r) => iframe.addEventListener('load', r, { once: true }));
	const client = await connect(iframe);
	status.textContent = 'Connected to Engram over postMessage.';
	document.body.dataset.connected = 'true';
	for (const el of [run, question, askButton, clear]) el.disabled = false;

	clear.addEventListener('click', async () => {
		clear.disabled = true;
		try {
			const out = await call(client, 'delete_memory', { tags: [DEMO_SCOPE], scope: DEMO_SCOPE });
			const n = out.deleted_count as number;
			step(
				n
					? `Removed the demo's ${n} ${n === 1 ? 'memory' : 'memories'} (scope “${DEMO_SCOPE}”); your own memories were not touched`
					: 'There were no demo memories to remove',
			);
			document.body.dataset.cleared = 'true';
		} catch (e) {
			step(String((e as Error).message ?? e), undefined, 'error');
		} finally {
			clear.disabled = false;
		}
	});

	run.addEventListener('click', async () => {
		run.disabled = true;
		try {
			await runScript(client);
			status.textContent = 'Script finished: the memories are in Engram (right).';
			document.body.dataset.done = 'true';
		} catch (e) {
			step(String((e as Error).message ?? e), undefined, 'error');
		} finally {
			run.disabled = false;
		}
	});
	$<HTMLFormElement>('ask').addEventListener('submit', async (e) => {
		e.preventDefault();
		if (!question.value.trim()) return;
		try {
			await recall(client, question.value.trim());
		} catch (err) {
			step(String((err as Error).message ?? err), undefined, 'error');
		}
	});
	if (new URLSearchParams(location.search).has('autorun')) run.click();
}

main().catch((e: unknown) => {
	status.textContent = `Could not connect to Engram: ${(e as Error).message ?? e}`;
	step(status.textContent, undefined, 'error');
});
