import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadGate } from '../../../src/engine/read-gate';

describe('ReadGate', () => {
	afterEach(() => void vi.useRealTimers());

	it('is idle at once with no read in flight, and passes a read’s result and error through', async () => {
		const gate = new ReadGate();
		await gate.idle(60_000);
		await expect(gate.run(async () => 7)).resolves.toBe(7);
		await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
		await gate.idle(60_000);
	});

	it('waits for every read in flight, failed ones too, before it is idle', async () => {
		const gate = new ReadGate();
		const order: string[] = [];
		let finish!: () => void;
		let fail!: (e: Error) => void;
		const a = gate.run(() => new Promise<void>((r) => (finish = r))).then(() => order.push('a done'));
		const b = gate.run(() => new Promise<void>((_, j) => (fail = j))).catch(() => order.push('b failed'));
		const idle = gate.idle(60_000).then(() => order.push('idle'));
		finish();
		await a;
		// b is still in flight: the gate is not idle yet.
		expect(order).toEqual(['a done']);
		fail(new Error('x'));
		await Promise.all([b, idle]);
		expect(order.slice(1).sort()).toEqual(['b failed', 'idle']);
	});

	it('stops waiting after maxWaitMs when a read takes longer', async () => {
		vi.useFakeTimers();
		const gate = new ReadGate();
		let finish!: () => void;
		const slow = gate.run(() => new Promise<void>((r) => (finish = r)));
		let idle = false;
		const waiting = gate.idle(25).then(() => (idle = true));
		await vi.advanceTimersByTimeAsync(25);
		await waiting;
		expect(idle).toBe(true);
		finish();
		await slow;
	});
});
