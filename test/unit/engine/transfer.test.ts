import { expose, proxy, wrap } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryError } from '../../../src/core/errors';
import type { Engine } from '../../../src/engine/engine';
import { remoteFacade } from '../../../src/engine/remote-facade';
import { registerMemoryErrorTransfer } from '../../../src/engine/transfer';
import type { ChangeEvent, EngineApi } from '../../../src/engine/types';
import { embedder, makeEngine } from './helpers';

const channels: MessageChannel[] = [];
let engine: Engine | undefined;

beforeAll(async () => {
	registerMemoryErrorTransfer();
	await embedder();
});

afterEach(async () => {
	channels.splice(0).forEach((c) => {
		c.port1.close();
		c.port2.close();
	});
	await engine?.close();
	engine = undefined;
});

/** Exposes `obj` on one end of a real MessagePort pair and wraps the other end. */
function across<T>(obj: unknown) {
	const ch = new MessageChannel();
	channels.push(ch);
	expose(obj, nodeEndpoint(ch.port1));
	return wrap<T>(nodeEndpoint(ch.port2));
}

describe('registerMemoryErrorTransfer', () => {
	it('keeps code, message and data of a MemoryError across the boundary', async () => {
		const remote = across<{ fail(): void }>({
			fail() {
				throw new MemoryError('not_found', 'memory_id: no memory with id "x"', { id: 'x' });
			},
		});
		const err = await remote.fail().catch((e: unknown) => e);
		expect(err).toBeInstanceOf(MemoryError);
		expect(err).toMatchObject({ code: 'not_found', message: 'memory_id: no memory with id "x"', data: { id: 'x' } });
	});

	it('leaves other errors as comlink sends them', async () => {
		const remote = across<{ fail(): void }>({
			fail() {
				throw new TypeError('plain failure');
			},
		});
		const err = (await remote.fail().catch((e: unknown) => e)) as Error;
		expect(err).not.toBeInstanceOf(MemoryError);
		expect(err).toMatchObject({ name: 'TypeError', message: 'plain failure' });
	});

	it('carries a real engine validation error and a subscription through comlink', async () => {
		engine = await makeEngine();
		const remote = across<EngineApi>(remoteFacade(Promise.resolve(engine)));
		const err = await remote.store({ content: '' }).catch((e: unknown) => e);
		expect(err).toMatchObject({ name: 'MemoryError', code: 'invalid_input', message: 'content: must not be empty' });
		const seen: ChangeEvent[] = [];
		let arrived!: () => void;
		const first = new Promise<void>((r) => (arrived = r));
		await remote.subscribe(
			proxy((e: ChangeEvent) => {
				seen.push(e);
				arrived();
			}),
		);
		const out = await remote.store({ content: 'Stored through comlink' });
		await first;
		expect(seen).toEqual([{ kind: 'memories', ids: [out.memory_id] }]);
		const off = await remote.subscribe(proxy(() => undefined));
		await off();
	});
});
