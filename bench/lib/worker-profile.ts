/**
 * CPU profiles of a page's workers over the DevTools protocol, for benchmarks that look for where
 * the time goes: `profileWorkers(page)` attaches to every worker the page starts (nested ones
 * too: the engine worker's start-up helper), pausing each at its first line so its profile starts
 * there, and `stop()` returns each worker's profile. `summary()` lists a profile's functions by
 * self time and by total time (self plus callees). Profiles open in Chrome DevTools as they are.
 */
import type { Page } from 'playwright-core';

/** A V8 CPU profile (the DevTools protocol's `Profiler.Profile`). */
export interface CpuProfile {
	nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

/** A worker's profile with the worker's URL. */
export interface WorkerProfile {
	url: string;
	profile: CpuProfile;
}

/**
 * Profiles every worker `page` starts from now on (reload the page after this to catch the
 * engine's start-up); `stop()` ends the profiles and detaches. Sampling every `intervalUs`.
 */
export async function profileWorkers(page: Page, intervalUs = 200): Promise<{ stop(): Promise<WorkerProfile[]> }> {
	const cdp = await page.context().newCDPSession(page);
	let next = 0;
	const pending = new Map<number, (r: unknown) => void>();
	/** Live workers: session id → url, and the session of each nested parent. */
	const workers = new Map<string, { url: string; parent?: string }>();
	/** A message to a (possibly nested) worker session: nested ones go inside their parent's. */
	const wrap = (sessionId: string, message: string): { sessionId: string; message: string } => {
		const parent = workers.get(sessionId)?.parent;
		if (parent === undefined) return { sessionId, message };
		const id = ++next;
		return wrap(parent, JSON.stringify({ id, method: 'Target.sendMessageToTarget', params: { sessionId, message } }));
	};
	const send = (sessionId: string, method: string, params: object = {}) =>
		new Promise<unknown>((resolve) => {
			const id = ++next;
			pending.set(id, resolve);
			// A worker that has ended (the helper does, once done) answers nothing.
			cdp.send('Target.sendMessageToTarget', wrap(sessionId, JSON.stringify({ id, method, params }))).catch(() => resolve(undefined));
		});
	const onAttach = async (sessionId: string, url: string, parent?: string) => {
		workers.set(sessionId, { url, parent });
		await send(sessionId, 'Profiler.enable');
		await send(sessionId, 'Profiler.setSamplingInterval', { interval: intervalUs });
		await send(sessionId, 'Profiler.start');
		// Its own workers (the start-up helper) are attached the same way.
		void send(sessionId, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
		await send(sessionId, 'Runtime.runIfWaitingForDebugger');
	};
	/** Profiles of workers that ended before stop(): they are lost, so say so. */
	const detached = (sessionId: string) => {
		const w = workers.get(sessionId);
		if (w) process.stderr.write(`profile: worker ${w.url} ended before its profile was taken\n`);
		workers.delete(sessionId);
	};
	/** A message from a worker session: a reply, or (from a parent) a nested worker's event. */
	const onMessage = (sessionId: string, raw: string) => {
		const m = JSON.parse(raw) as { id?: number; result?: unknown; method?: string; params?: Record<string, unknown> };
		if (m.id !== undefined) return pending.get(m.id)?.(m.result);
		if (m.method === 'Target.detachedFromTarget') detached((m.params as { sessionId: string }).sessionId);
		else if (m.method === 'Target.attachedToTarget') {
			const p = m.params as { sessionId: string; targetInfo: { url: string } };
			void onAttach(p.sessionId, p.targetInfo.url, sessionId);
		} else if (m.method === 'Target.receivedMessageFromTarget') {
			const p = m.params as { sessionId: string; message: string };
			onMessage(p.sessionId, p.message);
		}
	};
	cdp.on('Target.attachedToTarget', (e) => {
		if (e.targetInfo.type === 'worker') void onAttach(e.sessionId, e.targetInfo.url);
	});
	cdp.on('Target.receivedMessageFromTarget', (e) => onMessage(e.sessionId, e.message));
	cdp.on('Target.detachedFromTarget', (e) => detached(e.sessionId));
	await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
	return {
		async stop() {
			const out: WorkerProfile[] = [];
			for (const [sessionId, { url }] of workers) {
				const r = (await Promise.race([send(sessionId, 'Profiler.stop'), new Promise((ok) => setTimeout(ok, 2_000))])) as
					{ profile?: CpuProfile } | undefined;
				if (r?.profile) out.push({ url, profile: r.profile });
			}
			await cdp.detach();
			return out;
		},
	};
}

/** Milliseconds by function ("name url:line"), self and total, over the samples in [from, to) ms of the profile. */
export function summary(p: CpuProfile, top = 25, from = 0, to = Infinity): string {
	const byId = new Map(p.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const key = (id: number) => {
		const f = byId.get(id)!.callFrame;
		return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
	};
	const self = new Map<string, number>();
	const total = new Map<string, number>();
	let t = 0;
	let all = 0;
	for (let i = 0; i < p.samples.length; i++) {
		t += p.timeDeltas[i] / 1000;
		const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
		if (t < from || t >= to) continue;
		all += dt;
		const leaf = p.samples[i];
		self.set(key(leaf), (self.get(key(leaf)) ?? 0) + dt);
		const seen = new Set<string>();
		for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
			const k = key(id);
			if (seen.has(k)) continue;
			seen.add(k);
			total.set(k, (total.get(k) ?? 0) + dt);
		}
	}
	const list = (m: Map<string, number>) =>
		[...m]
			.sort((a, b) => b[1] - a[1])
			.slice(0, top)
			.map(([k, v]) => `  ${v.toFixed(1).padStart(8)} ms  ${k}`)
			.join('\n');
	return `sampled ${all.toFixed(0)} ms\nself:\n${list(self)}\ntotal:\n${list(total)}`;
}
