import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The app is static: `vite build` writes dist/, `vite preview` serves it on 127.0.0.1.
// The embedded model lives in public/models/ (built by scripts/ensure-model.mjs, not committed).
export default defineConfig({
	plugins: [svelte()],
	server: { host: '127.0.0.1', port: 5173 },
	preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4173), strictPort: true },
	worker: { format: 'es' },
	build: {
		target: 'es2022',
		sourcemap: true,
		rollupOptions: { input: { main: 'index.html' } },
	},
	optimizeDeps: {
		include: ['comlink', 'dexie', 'minisearch', 'zod'],
	},
});
