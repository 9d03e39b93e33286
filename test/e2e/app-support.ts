/**
 * Shared set-up for the app's end-to-end tests: the built app in real Chromium, with helpers to
 * wait for the engine worker and to seed memories through the page's engine client
 * (`globalThis.__engram`, a comlink proxy of the worker's engine).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';

/** One browser profile and one preview server for a test file. */
export interface AppFixture {
	server: Server;
	browser: Browser;
	page: Page;
	/** Page errors and console errors seen so far (tests assert there are none). */
	errors: string[];
	close(): Promise<void>;
}

/** Starts the preview server and Chromium, opens the app and waits until the engine answers. */
export async function openApp(path = '/'): Promise<AppFixture> {
	const server = await startPreview();
	const browser = await launchBrowser();
	const page = await browser.context.newPage();
	const errors: string[] = [];
	page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
	page.on('console', (m) => {
		if (m.type() === 'error') errors.push(`console: ${m.text()}`);
	});
	await page.goto(server.url + path);
	await engineReady(page);
	return {
		server,
		browser,
		page,
		errors,
		async close() {
			await browser.close();
			await server.stop();
		},
	};
}

/** The app of one test file, opened by `useApp`; each accessor throws until `beforeAll` has run. */
export interface UsedApp {
	readonly page: Page;
	readonly server: Server;
	readonly browser: Browser;
	readonly context: BrowserContext;
	/** Page errors and console errors seen so far. */
	readonly errors: string[];
}

/**
 * Registers this test file's hooks: `beforeAll` opens the app at `path` (see `openApp`),
 * `afterAll` closes it, and with `fresh` each test starts on an empty database with a freshly
 * loaded page at that route (wipe through the engine, go to the route, reload, engine ready).
 */
export function useApp(opts: { path?: string; fresh?: string } = {}): UsedApp {
	let app: AppFixture | undefined;
	beforeAll(async () => {
		app = await openApp(opts.path);
	});
	afterAll(async () => {
		await app?.close();
	});
	const fresh = opts.fresh;
	if (fresh !== undefined)
		beforeEach(async () => {
			const { page, server } = opened();
			await engine(page, 'wipe');
			await page.goto(server.url + fresh);
			await page.reload();
			await engineReady(page);
		});
	const opened = (): AppFixture => {
		if (!app) throw new Error('useApp: the app is not open yet (use it inside a test or a hook registered after useApp)');
		return app;
	};
	return {
		get page() {
			return opened().page;
		},
		get server() {
			return opened().server;
		},
		get browser() {
			return opened().browser;
		},
		get context() {
			return opened().browser.context;
		},
		get errors() {
			return opened().errors;
		},
	};
}

/** Waits until the page's engine client answers a call (the worker has loaded). */
export async function engineReady(page: Page): Promise<void> {
	await page.waitForFunction(() => (globalThis as { __engram?: unknown }).__engram !== undefined);
	await page.evaluate(() => (globalThis as unknown as { __engram: { stats(i: object): Promise<unknown> } }).__engram.stats({}));
}

/** A memory to seed (the store_memory item shape). */
export interface Seed {
	content: string;
	type?: string;
	tags?: string[];
	summary?: string;
	importance?: number;
	timestamp?: string;
	id?: string;
	scope?: string;
	force?: boolean;
}

/** Stores memories through the engine (as an agent would) and returns their ids in order. */
export async function seed(page: Page, memories: Seed[]): Promise<string[]> {
	return page.evaluate(async (items) => {
		const engine = (globalThis as unknown as { __engram: { store(i: object): Promise<{ results: { memory_id: string }[] }> } }).__engram;
		const out = await engine.store({ memories: items });
		return out.results.map((r) => r.memory_id);
	}, memories);
}

/** Calls any engine method from the page (arguments must be structured-cloneable). */
export async function engine<T>(page: Page, method: string, ...args: unknown[]): Promise<T> {
	return page.evaluate(
		async ({ method, args }) => {
			const e = (globalThis as unknown as { __engram: Record<string, (...a: unknown[]) => Promise<unknown>> }).__engram;
			return e[method](...args);
		},
		{ method, args },
	) as Promise<T>;
}

/** A small, realistic set of memories used by several tests. */
export const SAMPLE: Seed[] = [
	{ content: 'The user prefers dark mode and concise answers with code first.', type: 'Preference', tags: ['style', 'ui'], importance: 0.8 },
	{
		content: 'Decision: moved billing from MongoDB to PostgreSQL because invoices need ACID transactions.',
		type: 'Decision',
		tags: ['billing', 'database'],
		importance: 0.9,
		summary: 'Billing moved to PostgreSQL',
	},
	{ content: 'Deploys happen on Tuesdays after the stand-up; never deploy on Fridays.', type: 'Habit', tags: ['ops'] },
	{ content: 'Invoice totals were off by one cent because of floating-point rounding; amounts are now integer cents.', type: 'Insight', tags: ['billing'] },
	{ content: 'Alice Chen owns the payments API; ask her before changing the webhook format.', type: 'Context', tags: ['people', 'billing'] },
	{ content: 'Use pnpm workspaces for the monorepo; npm workspaces were too slow on CI.', type: 'Decision', tags: ['tooling'] },
];

/** A richer corpus for screenshots: one person's agents remembering a project over a few weeks. */
export function showcase(now = Date.now()): Seed[] {
	const day = 86_400_000;
	const at = (d: number) => new Date(now - d * day).toISOString();
	return [
		{
			content: 'Decision: billing moved from MongoDB to **PostgreSQL** because invoices need ACID transactions and row-level locks.',
			summary: 'Billing moved to PostgreSQL',
			type: 'Decision',
			tags: ['billing', 'database'],
			importance: 0.95,
			timestamp: at(20),
		},
		{
			content: 'Invoice totals were off by one cent because of floating-point rounding; amounts are now stored as integer cents.',
			type: 'Insight',
			tags: ['billing', 'bug'],
			importance: 0.8,
			timestamp: at(18),
		},
		{
			content: 'Alice Chen owns the payments API; ask her before changing the webhook payload format.',
			type: 'Context',
			tags: ['people', 'billing'],
			timestamp: at(17),
		},
		{
			content: 'The user prefers concise answers: code first, explanation after, no filler.',
			type: 'Preference',
			tags: ['style'],
			importance: 0.85,
			timestamp: at(16),
		},
		{
			content: 'Deploys happen on Tuesdays after the 10:00 stand-up; never deploy on Fridays.',
			type: 'Habit',
			tags: ['ops', 'deploy'],
			importance: 0.7,
			timestamp: at(15),
		},
		{
			content: 'Use `pnpm` workspaces for the monorepo; npm workspaces were too slow on CI (9 min → 3 min).',
			type: 'Decision',
			tags: ['tooling', 'ci'],
			importance: 0.75,
			timestamp: at(14),
		},
		{
			content: 'Retry webhooks with exponential backoff capped at 30 minutes; Stripe resends for 3 days anyway.',
			type: 'Pattern',
			tags: ['billing', 'webhooks'],
			timestamp: at(12),
		},
		{
			content: 'Bob Martins prefers reviews as short Loom videos rather than long written comments.',
			type: 'Preference',
			tags: ['people', 'reviews'],
			timestamp: at(11),
		},
		{
			content: 'The staging database is reset every Sunday at 02:00 UTC; never keep test fixtures only there.',
			type: 'Context',
			tags: ['ops', 'staging'],
			timestamp: at(10),
		},
		{
			content: 'Feature flags live in `config/flags.yaml`; remove a flag within two sprints of full rollout.',
			type: 'Pattern',
			tags: ['process'],
			timestamp: at(9),
		},
		{
			content: 'Error budget for the public API is 99.9% monthly; page on-call at 2% burn in an hour.',
			type: 'knowledge',
			tags: ['ops', 'slo'],
			importance: 0.8,
			timestamp: at(8),
		},
		{
			content: 'Style: TypeScript strict everywhere, tabs, single quotes, 100 columns; prettier runs on commit.',
			type: 'Style',
			tags: ['style', 'tooling'],
			timestamp: at(7),
		},
		{
			content: 'The user is planning a migration of the reporting jobs from cron to Temporal workflows in Q3.',
			type: 'episodic',
			tags: ['reporting', 'plans'],
			timestamp: at(6),
		},
		{
			content: 'How to rotate the billing database credentials: create the new role, deploy, then drop the old role after 24 h.',
			type: 'procedural',
			tags: ['billing', 'database', 'runbook'],
			importance: 0.9,
			timestamp: at(5),
		},
		{
			content: 'Invoices are generated nightly by the billing cron job at 02:30 UTC and emailed at 07:00 local time.',
			type: 'semantic',
			tags: ['billing'],
			timestamp: at(4),
		},
		{
			content: 'Insight: most support tickets about invoices come from customers in UTC+10 who see yesterday’s date.',
			type: 'Insight',
			tags: ['billing', 'support'],
			timestamp: at(3),
		},
		{
			content: 'The user wants weekly summaries of what the agents changed, every Friday afternoon.',
			type: 'Preference',
			tags: ['process'],
			timestamp: at(2),
		},
		{
			content: 'Decision: reporting will use Temporal, not Airflow — we need long-running workflows with retries per step.',
			summary: 'Reporting on Temporal',
			type: 'Decision',
			tags: ['reporting', 'plans'],
			importance: 0.9,
			timestamp: at(1),
		},
	];
}
