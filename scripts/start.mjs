#!/usr/bin/env node
// `npm start`: build the embedded model and the app when they are missing or stale, then serve
// dist/ on http://127.0.0.1:4173 (PORT overrides). Works offline: nothing here touches the network.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const node = process.execPath;
const port = process.env.PORT ?? '4173';

function run(args) {
	const r = spawnSync(node, args, { cwd: root, stdio: 'inherit' });
	if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Newest modification time under the given paths (files or folders), skipping generated ones. */
function newest(paths) {
	let max = 0;
	const walk = (p) => {
		if (!existsSync(p)) return;
		const st = statSync(p);
		if (st.isDirectory()) {
			for (const name of readdirSync(p)) if (name !== 'models') walk(join(p, name));
		} else max = Math.max(max, st.mtimeMs);
	};
	for (const p of paths) walk(join(root, p));
	return max;
}

run(['scripts/ensure-model.mjs']);

const built = join(root, 'dist', 'index.html');
const sources = ['src', 'workers', 'public', 'index.html', 'demo.html', 'vite.config.ts', 'package.json'];
const modelCopied = existsSync(join(root, 'dist', 'models', 'engram', 'glove-sif-100d', 'tokenizer.json'));
if (!existsSync(built) || !modelCopied || newest(sources) > statSync(built).mtimeMs) {
	console.log('Building the app…');
	run([join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
}

console.log(`Engram is at http://127.0.0.1:${port}/`);
const preview = spawn(node, [join(root, 'node_modules/vite/bin/vite.js'), 'preview', '--host', '127.0.0.1', '--port', port, '--strictPort'], {
	cwd: root,
	stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => preview.kill(sig));
preview.on('exit', (code) => process.exit(code ?? 0));
