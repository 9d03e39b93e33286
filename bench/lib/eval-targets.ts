/**
 * Where the eval sends its stores and recalls. `engine`: a fresh Engine in Node over
 * fake-indexeddb with the real embedded model — the real write path (entities, SIMILAR_TO,
 * PRECEDED_BY) and recall exactly as the tools call it. `index`: the search index alone, fed the
 * way the engine feeds it, for fast ablations. `mcp`: a hook for the MCP engineer's client path.
 */
import { categoryTable } from './categories';
import type { RecallInput } from '../../src/core/schemas';
import type { Embedder } from '../../src/engine/embedder';
import { type Conversation, turnMemory } from './dataset';

/** One system under evaluation. */
export interface EvalTarget {
	readonly name: string;
	/** Stores every turn of a conversation, in order, as the agent would. */
	storeConversation(conv: Conversation): Promise<void>;
	/** The dia_ids of the ranked results. */
	recall(input: RecallInput): Promise<string[]>;
	close(): Promise<void>;
}

/** A fresh engine over fake-indexeddb (the default target). */
export async function engineTarget(embedder: Embedder): Promise<EvalTarget> {
	const { indexedDB, IDBKeyRange } = await import('fake-indexeddb');
	const { createEngine } = await import('../../src/engine/engine');
	const engine = await createEngine({
		dbName: `engram-eval-${process.pid}-${Date.now()}`,
		indexedDB,
		IDBKeyRange,
		embedder,
		categories: categoryTable(),
		snapshotDelayMs: 3_600_000,
	});
	return {
		name: 'engine',
		async storeConversation(conv) {
			const memories = conv.sessions.flatMap((s) => s.turns.map((t) => ({ ...turnMemory(conv, s, t), force: true })));
			for (let i = 0; i < memories.length; i += 500) await engine.store({ memories: memories.slice(i, i + 500) });
		},
		async recall(input) {
			const out = await engine.recall(input);
			return out.results.map((r) => String(r.memory.metadata.dia_id));
		},
		close: () => engine.close(),
	};
}

/**
 * An MCP client path: set by the MCP engineer's module when it exists (`bench/lib/mcp-target.ts`
 * exporting `mcpTarget(embedder)`), so `npm run eval -- --through mcp` measures through the tools.
 */
export async function mcpTarget(embedder: Embedder): Promise<EvalTarget> {
	const path = './mcp-target';
	const mod = (await import(/* @vite-ignore */ path).catch(() => null)) as {
		mcpTarget?: (e: Embedder) => Promise<EvalTarget>;
	} | null;
	if (!mod?.mcpTarget) throw new Error('--through mcp: bench/lib/mcp-target.ts (exporting mcpTarget) is not there yet');
	return mod.mcpTarget(embedder);
}
