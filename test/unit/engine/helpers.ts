/**
 * Shared set-up for engine tests: the real embedded model (loaded once per test file), a fresh
 * fake-indexeddb database per engine, and a controllable clock.
 */
import type { DBCore, Middleware } from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, beforeAll } from 'vitest';
import { createEmbedder, type Embedder } from '../../../src/engine/embedder';
import { createEngine, type CreateEngineOptions, type Engine } from '../../../src/engine/engine';
import { nodeModelPath } from '../../../src/engine/node-model-path';
import { linksOut } from '../../../src/store/associations';
import type { EngramDB } from '../../../src/store/db';
import type { AssociationRow, MemoryRow } from '../../../src/store/rows';

let shared: Promise<Embedder> | undefined;

/** The embedded GloVe-SIF model, loaded from public/models once per test file. */
export function embedder(): Promise<Embedder> {
	shared ??= createEmbedder({ localModelPath: nodeModelPath() });
	return shared;
}

/** An embedder that counts how many texts it embedded (wraps the real one). */
export function countingEmbedder(inner: Embedder): Embedder & { texts: number; calls: number } {
	const e = {
		modelId: inner.modelId,
		dims: inner.dims,
		texts: 0,
		calls: 0,
		async embed(texts: string[]) {
			e.calls++;
			e.texts += texts.length;
			return inner.embed(texts);
		},
	};
	return e;
}

/** A clock tests can move: starts at 2026-03-10T12:00:00Z. */
export class Clock {
	ms = Date.parse('2026-03-10T12:00:00.000Z');
	now = () => this.ms;
	advance(ms: number): void {
		this.ms += ms;
	}
}

let counter = 0;

/** A unique database name for one test. */
export function freshName(): string {
	return `engram-test-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`;
}

/** A new engine on a fresh database (or `dbName` to reopen one). */
export async function makeEngine(opts: Partial<CreateEngineOptions> = {}): Promise<Engine> {
	return createEngine({
		dbName: opts.dbName ?? freshName(),
		indexedDB,
		IDBKeyRange,
		embedder: opts.embedder ?? embedder(),
		...opts,
	});
}

/**
 * Engines for one test file: loads the model before the first test and closes every engine the
 * returned opener made after each test. Call at the top level of the file.
 */
export function useEngines(): (opts?: Partial<CreateEngineOptions>) => Promise<Engine> {
	const open: Engine[] = [];
	beforeAll(async () => {
		await embedder();
	});
	afterEach(async () => {
		await Promise.all(open.splice(0).map((e) => e.close()));
	});
	return async (opts = {}) => {
		const e = await makeEngine(opts);
		open.push(e);
		return e;
	};
}

/** The MemoryError a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string }> {
	try {
		await p;
	} catch (e) {
		return e as { code: string; message: string };
	}
	throw new Error('expected the call to reject');
}

/** Every stored association (each lives on the memory it leaves). */
export async function storedLinks(engine: { db: EngramDB }): Promise<AssociationRow[]> {
	return (await engine.db.memories.toArray()).flatMap(linksOut);
}

/**
 * A Dexie middleware named `name` that refuses, with QuotaExceededError, every add or put that
 * `refuse(table, rows)` picks; everything else goes through.
 */
function refusePuts(name: string, refuse: (table: string, rows: readonly unknown[]) => boolean): Middleware<DBCore> {
	return {
		stack: 'dbcore',
		name,
		create: (down) => ({
			...down,
			table(table) {
				const t = down.table(table);
				return {
					...t,
					mutate(req) {
						if ((req.type === 'add' || req.type === 'put') && refuse(table, req.values))
							return Promise.reject(Object.assign(new Error('quota reached'), { name: 'QuotaExceededError' }));
						return t.mutate(req);
					},
				};
			},
		}),
	};
}

/**
 * A Dexie middleware that refuses every add and put while `state.full`, as Chromium does at the
 * origin's quota (test/e2e/quota.test.ts found the rule); a transaction of deletes alone commits.
 */
export function quota(state: { full: boolean }): Middleware<DBCore> {
	return refusePuts('test-quota', () => state.full);
}

/**
 * A Dexie middleware that refuses, while `state.on`, any put of a memory row carrying a link of
 * `type`: the link step of a write fails (as at the quota) while everything else goes through.
 */
export function refuseLink(type: string, state: { on: boolean }): Middleware<DBCore> {
	return refusePuts(
		'test-refuse-link',
		(table, rows) => state.on && table === 'memories' && (rows as readonly MemoryRow[]).some((r) => linksOut(r).some((l) => l.type === type)),
	);
}

/**
 * A Dexie middleware that, while `state.full`, lets every request of a read-write transaction
 * succeed and then refuses its commit with QuotaExceededError (the transaction aborts; nothing
 * lands), as Chromium does: its quota check runs when the transaction commits, after the
 * engine has already mirrored the change into its index. Only an explicit `commit()` is
 * refused (EngramDB.commitNow, which every indexed write calls); deletes alone commit.
 */
export function quotaAtCommit(state: { full: boolean }): Middleware<DBCore> {
	return {
		stack: 'dbcore',
		name: 'test-quota-at-commit',
		create: (down) => ({
			...down,
			transaction(stores, mode, options) {
				const tx = down.transaction(stores, mode, options) as IDBTransaction;
				if (mode !== 'readwrite') return tx;
				let puts = false;
				let refused: DOMException | undefined;
				const refuse = () => {
					if (!state.full || !puts || refused) return false;
					refused = new DOMException('quota reached at commit', 'QuotaExceededError');
					Object.defineProperty(tx, 'error', { configurable: true, get: () => refused, set: () => undefined });
					tx.abort();
					return true;
				};
				const commit = tx.commit?.bind(tx);
				if (commit) tx.commit = () => void (refuse() || commit());
				(tx as unknown as { __put: () => void }).__put = () => (puts = true);
				return tx;
			},
			table(name) {
				const t = down.table(name);
				return {
					...t,
					async mutate(req) {
						const tx = req.trans as unknown as { __put?: () => void };
						if (req.type === 'add' || req.type === 'put') tx.__put?.();
						return t.mutate(req);
					},
				};
			},
		}),
	};
}
