/**
 * nearestMany for a batch of stores: 500 look-ups (k 5, as a store asks for its SIMILAR_TO and
 * duplicate candidates) among N stored 100-d vectors, scored one query per pass over the codes
 * (SWEEP.perPass 0) and eight per pass (the default), alternated in one process; medians.
 * Both answer the same, checked here on every run.
 * Run: npx tsx bench/nearest-batch.ts [--n 10000] [--batch 500] [--runs 9] [--scope default|none|many]
 */
import { createSearchIndex } from '../src/engine/search/index';
import { SWEEP } from '../src/engine/search/nearest';
import { bareMeta, topicVectors } from './lib/vectors';
import { percentile, round } from './lib/stats';

const arg = (name: string, fallback: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : fallback;
};
const N = Number(arg('n', '10000'));
const BATCH = Number(arg('batch', '500'));
const RUNS = Number(arg('runs', '9'));
/** default: every memory and look-up in one scope (an agent's usual case); none: unscoped look-ups; many: 8 scopes. */
const SCOPE = arg('scope', 'default');
const DIMS = 100;
const K = 5;

const { unit } = topicVectors(DIMS, 5, 200, 0.6);
const scopeOf = (i: number) => (SCOPE === 'many' ? `s${i % 8}` : 'default');

const index = createSearchIndex({ modelId: 'bench', dims: DIMS });
for (let i = 0; i < N; i++) index.upsert(bareMeta(`m${i}`, scopeOf(i), i), { content: `m${i}` }, unit());
const batch = Array.from({ length: BATCH }, (_, i) => ({ vector: unit(), scope: SCOPE === 'none' ? undefined : scopeOf(i) }));

/** One batch: wall and CPU milliseconds (the CPU time of this process, steadier on a loaded machine). */
function timed(perPass: number): { ms: number; cpu: number; answer: string } {
	SWEEP.perPass = perPass;
	const c = process.cpuUsage();
	const t = performance.now();
	const got = index.nearestMany(batch, K);
	const ms = performance.now() - t;
	const u = process.cpuUsage(c);
	return { ms, cpu: (u.user + u.system) / 1000, answer: JSON.stringify(got) };
}

const modes = [0, 8];
const wall = new Map<number, number[]>(modes.map((m) => [m, []]));
const cpu = new Map<number, number[]>(modes.map((m) => [m, []]));
for (const m of modes) timed(m); // warm up both
for (let r = 0; r < RUNS; r++) {
	const answers = modes.map((m) => {
		const { ms, cpu: c, answer } = timed(m);
		wall.get(m)!.push(ms);
		cpu.get(m)!.push(c);
		return answer;
	});
	if (answers.some((a) => a !== answers[0])) throw new Error('the two scans answered differently');
}
const med = (t: Map<number, number[]>, m: number) => percentile(t.get(m)!, 50);
console.log(
	JSON.stringify({
		n: N,
		batch: BATCH,
		scope: SCOPE,
		runs: RUNS,
		one_per_pass_ms: round(med(wall, 0), 2),
		eight_per_pass_ms: round(med(wall, 8), 2),
		speedup: round(med(wall, 0) / med(wall, 8), 2),
		one_per_pass_cpu_ms: round(med(cpu, 0), 2),
		eight_per_pass_cpu_ms: round(med(cpu, 8), 2),
		cpu_speedup: round(med(cpu, 0) / med(cpu, 8), 2),
	}),
);
