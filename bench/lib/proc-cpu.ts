/**
 * CPU time the browser spends, read from Linux's /proc: wall-clock timings on a shared machine
 * swing with the load (a cold start measured 2.0–3.9 s in one run at a load of 14 on two cores),
 * while the CPU time a page load costs barely moves, so A/B comparisons of start-up work read
 * this. `browserCpu(dir)` finds the Chromium whose profile is `dir` and sums its processes and
 * their threads; two readings' `cpuDelta` gives the CPU milliseconds spent between them, in total
 * and per thread name (the engine worker and its helper are `DedicatedWorker`, Linux names being cut to 15 characters). Null where /proc
 * is missing (not Linux).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** CPU ms by thread name, summed over the browser's processes, plus `total` (every process, ended threads included). */
export type CpuReading = Record<string, number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime in ms of a /proc stat line (the fields after the parenthesised name). */
function statTimes(line: string): { name: string; ppid: number; ms: number } {
	const open = line.indexOf('(');
	const close = line.lastIndexOf(')');
	const rest = line.slice(close + 2).split(' ');
	return { name: line.slice(open + 1, close), ppid: Number(rest[1]), ms: (Number(rest[11]) + Number(rest[12])) * TICK_MS };
}

const read = (path: string) => {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
};

/** A directory's entries; none when it is gone (a process may end between readings). */
function list(path: string): string[] {
	try {
		return readdirSync(path);
	} catch {
		return [];
	}
}

/** The browser process started with `--user-data-dir=<dir>` and every process below it. */
function processesOf(dir: string): number[] {
	const pids = readdirSync('/proc')
		.filter((p) => /^\d+$/.test(p))
		.map(Number);
	const parent = new Map<number, number>();
	const flagged: number[] = [];
	for (const pid of pids) {
		const stat = read(`/proc/${pid}/stat`);
		if (!stat) continue;
		parent.set(pid, statTimes(stat).ppid);
		if ((read(`/proc/${pid}/cmdline`) ?? '').split('\0').includes(`--user-data-dir=${dir}`)) flagged.push(pid);
	}
	// Its zygotes carry the flag too: the browser is the one whose parent does not.
	const root = flagged.find((p) => !flagged.includes(parent.get(p)!));
	if (root === undefined) return [];
	const under = (pid: number): boolean => pid === root || (parent.has(pid) && pid > 1 && under(parent.get(pid)!));
	return pids.filter((p) => parent.has(p) && under(p));
}

/** The CPU the browser of profile `dir` has used so far; null without /proc. */
export function browserCpu(dir: string): CpuReading | null {
	if (!existsSync('/proc/self/stat')) return null;
	const out: CpuReading = { total: 0 };
	for (const pid of processesOf(dir)) {
		const stat = read(`/proc/${pid}/stat`);
		if (stat) out.total += statTimes(stat).ms;
		// The process may have ended since it was listed.
		const tids = list(`/proc/${pid}/task`);
		for (const tid of tids) {
			const t = read(`/proc/${pid}/task/${tid}/stat`);
			if (!t) continue;
			const { name, ms } = statTimes(t);
			// Keyed by thread id too: a thread that ended between readings must not cancel a new one's time.
			out[`${name}#${pid}.${tid}`] = ms;
		}
	}
	return out;
}

/** CPU ms spent between two readings: `total`, and per thread name (threads born in between count whole). */
export function cpuDelta(before: CpuReading, after: CpuReading): Record<string, number> {
	const out: Record<string, number> = { total: after.total - before.total };
	for (const [key, ms] of Object.entries(after)) {
		if (key === 'total') continue;
		const name = key.slice(0, key.lastIndexOf('#'));
		const d = ms - (before[key] ?? 0);
		if (d > 0) out[name] = (out[name] ?? 0) + d;
	}
	return out;
}
