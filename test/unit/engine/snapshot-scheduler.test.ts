/**
 * The snapshot's timing: after the writes' quiet spell it also waits for searches to pause (its
 * steps, flush and garbage slowed the searches that landed among them), but never past the
 * longest wait since the first unsaved write.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SnapshotScheduler } from '../../../src/engine/index-lifecycle';
import { ReadGate } from '../../../src/engine/read-gate';

describe('SnapshotScheduler', () => {
	beforeEach(() => {
		vi.useFakeTimers({ now: 1_000_000 });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	/** A scheduler over a read gate, its saves counted: quiet spell 100 ms, longest wait 5 s, reads' pause 1 s. */
	function scheduler(gate: ReadGate) {
		const saves: number[] = [];
		const s = new SnapshotScheduler(
			async () => void saves.push(Date.now() - 1_000_000),
			() => 0,
			100,
			5_000,
			(now) => gate.quietFor(now),
			1_000,
		);
		return { s, saves };
	}

	/** A search every `every` ms for `ms` ms, each taking 5 ms. */
	async function searches(gate: ReadGate, every: number, ms: number): Promise<void> {
		for (let t = 0; t < ms; t += every) {
			void gate.run(() => new Promise((r) => setTimeout(r, 5)));
			await vi.advanceTimersByTimeAsync(every);
		}
	}

	it('saves after the quiet spell when nothing is searching', async () => {
		const gate = new ReadGate();
		const { s, saves } = scheduler(gate);
		s.schedule();
		await vi.advanceTimersByTimeAsync(99);
		expect(saves).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(saves).toEqual([100]);
	});

	it('waits for searches to pause for a second, then saves', async () => {
		const gate = new ReadGate();
		const { s, saves } = scheduler(gate);
		s.schedule();
		await searches(gate, 40, 2_000);
		expect(saves).toEqual([]);
		await vi.advanceTimersByTimeAsync(1_100);
		expect(saves).toHaveLength(1);
		// The last search settled at ~1,965 ms; the save came a second after it, not at 100 ms.
		expect(saves[0]).toBeGreaterThanOrEqual(2_900);
		expect(saves[0]).toBeLessThanOrEqual(3_100);
	});

	it('saves at the longest wait even when searches never pause', async () => {
		const gate = new ReadGate();
		const { s, saves } = scheduler(gate);
		s.schedule();
		await searches(gate, 40, 7_000);
		expect(saves).toHaveLength(1);
		expect(saves[0]).toBeGreaterThanOrEqual(5_000);
		expect(saves[0]).toBeLessThanOrEqual(5_100);
	});

	it('reads the gate as quiet before any read and while none is in flight', async () => {
		const gate = new ReadGate();
		expect(gate.quietFor()).toBe(Infinity);
		let done!: () => void;
		const read = gate.run(() => new Promise<void>((r) => (done = r)));
		expect(gate.quietFor()).toBe(0);
		await vi.advanceTimersByTimeAsync(300);
		expect(gate.quietFor()).toBe(0);
		done();
		await read;
		await vi.advanceTimersByTimeAsync(250);
		expect(gate.quietFor()).toBe(250);
	});
});
