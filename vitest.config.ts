import { defineConfig } from 'vitest/config';

// Two projects: fast Node unit tests (fake-indexeddb) and end-to-end tests in real Chromium
// against the built app (`vite build` runs between them in `npm test`).
export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					include: ['test/unit/**/*.test.ts', 'test/fixtures/**/*.test.ts'],
					environment: 'node',
					testTimeout: 60_000,
					hookTimeout: 120_000,
				},
			},
			{
				test: {
					name: 'e2e',
					include: ['test/e2e/**/*.test.ts'],
					environment: 'node',
					testTimeout: 120_000,
					hookTimeout: 180_000,
					fileParallelism: false,
				},
			},
		],
	},
});
