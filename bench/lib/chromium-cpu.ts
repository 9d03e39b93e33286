/**
 * CPU seconds of this process's Chromium, read from /proc (Linux): on a shared machine they vary
 * far less than wall time, so builds are compared by them.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) of this run's Chromium: the browser process (this process's child,
 * with a temporary profile directory) and its descendants, as renderers and the rest; of the
 * renderers', the dedicated workers' threads (`worker`), the pages' main threads (`page`) and the
 * thread pool's (`pool`: V8's concurrent garbage collection and background compilers, on behalf
 * of the page and its workers); of the browser process's, its thread pool (`browser_pool`: where
 * IndexedDB's backend runs).
 */
export function cpuSeconds(): Record<'browser' | 'browser_pool' | 'renderer' | 'worker' | 'page' | 'pool' | 'other', number> {
	const procs = readdirSync('/proc')
		.filter((d) => /^\d+$/.test(d))
		.flatMap((pid) => {
			try {
				const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
				return [{ pid, ppid: stat[1], cpu: (Number(stat[11]) + Number(stat[12])) / 100, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') }];
			} catch {
				return []; // The process ended meanwhile.
			}
		});
	// This run's Chromium: the browser process is a child of this one (other runs on the machine
	// have their own, with the same kind of profile directory).
	const ours = new Set(procs.filter((p) => p.cmd.includes('engram-chromium-') && !/--type=/.test(p.cmd) && p.ppid === String(process.pid)).map((p) => p.pid));
	for (let grew = true; grew;) {
		grew = false;
		for (const p of procs) if (!ours.has(p.pid) && ours.has(p.ppid)) grew = Boolean(ours.add(p.pid));
	}
	const out = { browser: 0, browser_pool: 0, renderer: 0, worker: 0, page: 0, pool: 0, other: 0 };
	for (const p of procs) if (ours.has(p.pid)) out[/--type=renderer/.test(p.cmd) ? 'renderer' : /--type=/.test(p.cmd) ? 'other' : 'browser'] += p.cpu;
	for (const p of procs)
		if (ours.has(p.pid) && /--type=renderer/.test(p.cmd)) {
			out.worker += threads(p.pid, (tid, name) => name.startsWith('DedicatedWorker'));
			// A process's main thread has the process's id.
			out.page += threads(p.pid, (tid) => tid === p.pid);
			out.pool += threads(p.pid, (tid, name) => name.startsWith('ThreadPool'));
		} else if (ours.has(p.pid) && !/--type=/.test(p.cmd)) out.browser_pool += threads(p.pid, (tid, name) => name.startsWith('ThreadPool'));
	return out;
}

/** CPU seconds of a renderer's threads that `pick` chooses by id and name. */
function threads(pid: string, pick: (tid: string, name: string) => boolean): number {
	let cpu = 0;
	try {
		for (const tid of readdirSync(`/proc/${pid}/task`)) {
			if (!pick(tid, readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8'))) continue;
			const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
			cpu += (Number(stat[11]) + Number(stat[12])) / 100;
		}
	} catch {
		// The process or thread ended meanwhile.
	}
	return cpu;
}
