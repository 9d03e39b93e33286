import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// The app is static: `vite build` writes dist/, `vite preview` serves it on 127.0.0.1.
// The embedded model lives in public/models/ (built by scripts/ensure-model.mjs, not committed)
// and is copied to dist/models/; the service worker precaches it with the app and the wasm so
// everything works offline after the first visit.

/** onnxruntime-web's wasm is ~27 MB; Workbox refuses anything over 2 MiB unless told otherwise. */
const MAX_PRECACHE_BYTES = 64 * 1024 * 1024;

/**
 * Fails the build when the same wasm lands in dist twice (e.g. once from a `?url` import and once
 * from a bundled `new URL(…, import.meta.url)`): the service worker would precache 27 MB twice.
 */
function singleWasm(): Plugin {
	return {
		name: 'engram-single-wasm',
		apply: 'build',
		generateBundle(_options, bundle) {
			const seen = new Map<string, string>();
			for (const file of Object.keys(bundle)) {
				if (!file.endsWith('.wasm')) continue;
				const base = file.replace(/^.*\//, '').replace(/-[\w-]{8}\.wasm$/, '.wasm');
				const previous = seen.get(base);
				if (previous) this.error(`wasm emitted twice: ${previous} and ${file}`);
				seen.set(base, file);
			}
		},
	};
}

/**
 * The Content-Security-Policy of the built app, with `'sha256-…'` sources for its inline scripts.
 * Scripts and workers come from the app's origin only ('wasm-unsafe-eval' lets onnxruntime-web
 * compile its wasm); nothing in stored text can make the page load from elsewhere; sockets may
 * reach a relay on this machine; https to the Hugging Face hub lets Settings download a
 * transformers.js model (its files redirect to *.hf.co). Svelte writes `style` attributes, so
 * inline styles are allowed (DOMPurify removes them from stored text). connect-src also allows
 * any https: origin and loopback http: for sync, whose CouchDB server the person chooses (the
 * policy cannot name it per URL; docs/SYNC.md). No frame-ancestors: pages
 * of other origins may embed the app (their agents still need the person's approval).
 */
export function contentSecurityPolicy(scriptHashes: string[] = []): string {
	return [
		"default-src 'self'",
		["script-src 'self' 'wasm-unsafe-eval'", ...scriptHashes.map((h) => `'${h}'`)].join(' '),
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self'",
		"connect-src 'self' ws://127.0.0.1:* ws://localhost:* wss://127.0.0.1:* wss://localhost:* https://huggingface.co https://*.huggingface.co https://*.hf.co http://127.0.0.1:* http://localhost:* https:",
		"worker-src 'self'",
		"media-src 'none'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
	].join('; ');
}

/** `sha256-…` of every inline classic script in an HTML document. */
function inlineScriptHashes(html: string): string[] {
	const hashes: string[] = [];
	for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
		if (/\bsrc\s*=/i.test(m[1]!) || !m[2]!.trim()) continue;
		hashes.push(`sha256-${createHash('sha256').update(m[2]!, 'utf8').digest('base64')}`);
	}
	return hashes;
}

/**
 * Serves the CSP: as a `<meta http-equiv>` in every built HTML page (static hosting has no
 * headers), and as a response header from `vite preview` (what `npm start` runs), which also
 * covers the workers and the service worker (a worker takes its policy from its own response).
 * The dev server gets none: Vite's client injects scripts of its own.
 */
function csp(): Plugin {
	let outDir = 'dist';
	return {
		name: 'engram-csp',
		configResolved(config) {
			outDir = resolve(config.root, config.build.outDir);
		},
		transformIndexHtml: {
			order: 'post',
			handler(html, ctx) {
				if (ctx.server) return html;
				const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(inlineScriptHashes(html))}" />`;
				// First in <head>, so the policy covers everything after it.
				return html.replace(/<head>/i, `<head>\n\t\t${meta}`);
			},
		},
		configurePreviewServer(server) {
			const pages = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith('.html')) : [];
			const hashes = [...new Set(pages.flatMap((f) => inlineScriptHashes(readFileSync(join(outDir, f), 'utf8'))))];
			const policy = contentSecurityPolicy(hashes);
			server.middlewares.use((_req, res, next) => {
				res.setHeader('Content-Security-Policy', policy);
				next();
			});
		},
	};
}

export default defineConfig({
	plugins: [
		svelte(),
		singleWasm(),
		csp(),
		VitePWA({
			// A new version waits for the person to accept it (the app shows an update prompt)
			// instead of reloading a tab mid-edit.
			registerType: 'prompt',
			injectRegister: false,
			manifest: {
				name: 'Engram — memory for your AI agents',
				short_name: 'Engram',
				description: 'Private, offline long-term memory for AI agents: search, fix, link and export what your agents remember.',
				start_url: './',
				scope: './',
				display: 'standalone',
				background_color: '#0f1115',
				theme_color: '#4f46e5',
				categories: ['productivity', 'developer', 'utilities'],
				icons: [
					{ src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
					{ src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
					{
						src: 'icons/icon-maskable-512.png',
						sizes: '512x512',
						type: 'image/png',
						purpose: 'maskable',
					},
				],
			},
			workbox: {
				// Icons, favicon and the manifest are matched here too, so no includeAssets (it would list them twice).
				globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,wasm,json,onnx}'],
				globIgnores: ['**/*.map'],
				maximumFileSizeToCacheInBytes: MAX_PRECACHE_BYTES,
				navigateFallback: 'index.html',
				// Pages that are documents of their own must not be answered with the app shell.
				navigateFallbackDenylist: [/\/demo\.html$/, /\/test-[\w-]+\.html$/],
				cleanupOutdatedCaches: true,
			},
		}),
	],
	define: { __APP_VERSION__: JSON.stringify(pkg.version) },
	server: { host: '127.0.0.1', port: 5173 },
	preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4173), strictPort: true },
	worker: { format: 'es' },
	build: {
		target: 'es2022',
		sourcemap: true,
		chunkSizeWarningLimit: 2048,
		rollupOptions: { input: { main: 'index.html', demo: 'demo.html' } },
	},
	optimizeDeps: {
		include: [
			'comlink',
			'dexie',
			'minisearch',
			'zod',
			'@huggingface/transformers',
			'cytoscape',
			'marked',
			'dompurify',
			'@modelcontextprotocol/sdk/server/mcp.js',
			'@modelcontextprotocol/sdk/client/index.js',
			'@modelcontextprotocol/sdk/types.js',
			'@mcp-b/transports',
		],
	},
});
