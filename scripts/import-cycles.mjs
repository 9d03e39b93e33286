#!/usr/bin/env node
// Lists import cycles among our own files, type-only imports included (ESLint's import-x/no-cycle
// follows value imports only). Exits 1 when there is one. Usage: node scripts/import-cycles.mjs
import { readFileSync, existsSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';

// Run from the repository root: paths are relative to it.
const files = execSync('git ls-files src workers relay bin', { encoding: 'utf8' })
	.split('\n')
	.filter((f) => /\.(ts|svelte|mjs|js)$/.test(f));
const exts = ['', '.ts', '.svelte.ts', '.js', '.mjs', '.svelte', '/index.ts'];
function resolve(from, spec) {
	if (!spec.startsWith('.')) return null;
	const base = path.normalize(path.join(path.dirname(from), spec));
	for (const e of exts) {
		const p = base + e;
		if (existsSync(p) && statSync(p).isFile()) return p;
	}
	const noJs = base.replace(/\.js$/, '.ts');
	if (existsSync(noJs)) return noJs;
	return null;
}
const graph = new Map();
for (const f of files) {
	const src = readFileSync(f, 'utf8');
	const deps = new Set();
	for (const m of src.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g)) {
		const r = resolve(f, m[1]);
		if (r) deps.add(r);
	}
	for (const m of src.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
		const r = resolve(f, m[1]);
		if (r) deps.add(r);
	}
	graph.set(f, [...deps]);
}
// Tarjan SCC
let idx = 0;
const st = [];
const on = new Set();
const I = new Map();
const L = new Map();
const sccs = [];
function sc(v) {
	I.set(v, idx);
	L.set(v, idx);
	idx++;
	st.push(v);
	on.add(v);
	for (const w of graph.get(v) ?? []) {
		if (!graph.has(w)) continue;
		if (!I.has(w)) {
			sc(w);
			L.set(v, Math.min(L.get(v), L.get(w)));
		} else if (on.has(w)) L.set(v, Math.min(L.get(v), I.get(w)));
	}
	if (L.get(v) === I.get(v)) {
		const c = [];
		let w;
		do {
			w = st.pop();
			on.delete(w);
			c.push(w);
		} while (w !== v);
		if (c.length > 1) sccs.push(c);
	}
}
for (const v of graph.keys()) if (!I.has(v)) sc(v);
console.log(`${sccs.length} cycle group(s)`);
for (const c of sccs) {
	console.log('- ' + c.sort().join(' <-> '));
	for (const a of c) for (const b of graph.get(a)) if (c.includes(b)) console.log(`    ${a} -> ${b}`);
}
process.exitCode = sccs.length ? 1 : 0;
