// ESLint: typescript-eslint and eslint-plugin-svelte's recommended rules, plus the house's layer
// directions (STYLE.md §1: imports point inward) and no `console` where STYLE §4 forbids it.
// Formatting is Prettier's job (`prettier --check` in `npm run lint`), so no stylistic rules here.
import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

/** Everything of ours outside `src/`. */
const OUTSIDE_SRC = ['./workers', './relay', './bin', './scripts', './bench', './test'];

/**
 * The layer directions: core ← store ← engine ← mcp / ui; relay apart. `target` may not import
 * `from`; paths are from the repository root.
 */
const LAYERS = [
	{
		target: './src/core',
		from: ['./src/store', './src/engine', './src/mcp', './src/ui', './src/sync', './src/demo', './src/boot.ts', './src/main.ts', ...OUTSIDE_SRC],
		message: 'core imports nothing of ours (STYLE §1).',
	},
	{
		target: './src/store',
		from: ['./src/engine', './src/mcp', './src/ui', './src/sync', './src/demo', './src/boot.ts', './src/main.ts', ...OUTSIDE_SRC],
		message: 'store imports only core (STYLE §1).',
	},
	{
		target: './src/engine',
		from: ['./src/mcp', './src/ui', './src/sync', './src/demo', './src/boot.ts', './src/main.ts', ...OUTSIDE_SRC],
		message: 'engine imports only core and store (STYLE §1).',
	},
	{
		target: './src/mcp',
		from: ['./src/ui', './src/sync', './src/demo', './src/boot.ts', './src/main.ts', ...OUTSIDE_SRC],
		message: 'mcp imports core and engine, never the UI (STYLE §1).',
	},
	{
		target: './src/ui',
		from: ['./src/store', ...OUTSIDE_SRC],
		message: 'the UI never imports store (STYLE §1): it reaches data through the engine.',
	},
	{
		target: './relay',
		from: './src',
		except: ['./mcp/transports/relay-protocol.ts'],
		message: 'the relay is a pipe: of src/ it shares only the protocol module (STYLE §5).',
	},
	{
		target: './src',
		from: OUTSIDE_SRC,
		message: 'src/ never imports workers, the relay, scripts, benchmarks or tests.',
	},
];

export default ts.config(
	{
		ignores: ['dist/', 'public/', 'coverage/', 'test-results/', 'bench/out/', '.tmp/', 'test/fixtures/'],
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	{
		languageOptions: {
			ecmaVersion: 2023,
			sourceType: 'module',
			globals: { ...globals.browser, ...globals.worker, ...globals.node },
		},
		plugins: { 'import-x': importX },
		settings: {
			'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.svelte', '.json'] })],
		},
		rules: {
			'import-x/no-restricted-paths': ['error', { zones: LAYERS }],
			// Type-only imports are not followed here: scripts/import-cycles.mjs (in `npm run lint`) fails on those.
			'import-x/no-cycle': ['error', { ignoreExternal: true }],
			// `_`-prefixed parameters are deliberately unused (a callback's shape, a destructured rest).
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
	},
	{
		// TypeScript checks names (svelte-check and tsc run before the lint); ESLint's no-undef
		// does not know type namespaces such as `cytoscape.LayoutOptions`.
		files: ['**/*.ts', '**/*.svelte'],
		rules: { 'no-undef': 'off' },
	},
	{
		// State classes keep private bookkeeping (timers, pending pages, cancelled ids) in plain
		// Map/Set on purpose: what the screen reads is a `$state` field (STYLE §6), and a reactive
		// Map here would re-render on every internal write.
		files: ['src/ui/state/**'],
		rules: { 'svelte/prefer-svelte-reactivity': 'off' },
	},
	{
		// The UI reaches the MCP SDK and Dexie only through mcp/ and the engine (STYLE §1, §6).
		files: ['src/ui/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], message: 'the UI never imports the MCP SDK (STYLE §1).' },
						{ group: ['dexie'], message: 'components never import dexie (STYLE §6): the engine owns the database.' },
					],
				},
			],
		},
	},
	{
		// core, store and mcp report through callbacks, never the console (STYLE §4).
		files: ['src/core/**', 'src/store/**', 'src/mcp/**'],
		rules: { 'no-console': 'error' },
	},
);
