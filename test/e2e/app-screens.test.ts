/**
 * Screenshots of the main screens (light and dark, desktop and phone) into docs/screenshots/, and
 * an accessibility pass over each screen with Chromium's accessibility tree: every button, link,
 * field, checkbox, slider and list box must have an accessible name.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ROOT } from './helpers';
import { engine, openApp, seed, showcase, type AppFixture } from './app-support';

const OUT = join(ROOT, 'docs', 'screenshots');
let app: AppFixture;
let page: Page;
let ids: string[];

beforeAll(async () => {
	mkdirSync(OUT, { recursive: true });
	app = await openApp();
	page = app.page;
	ids = await seed(page, showcase());
	await engine(page, 'associate', {
		associations: [
			{ memory1_id: ids[1], memory2_id: ids[0], type: 'DERIVED_FROM', strength: 0.8, transformation: 'found while checking invoices after the move' },
			{ memory1_id: ids[13], memory2_id: ids[0], type: 'PART_OF', strength: 0.7, role: 'runbook' },
			{ memory1_id: ids[17], memory2_id: ids[12], type: 'EVOLVED_INTO', strength: 0.9, reason: 'the plan became a decision' },
			{ memory1_id: ids[6], memory2_id: ids[2], type: 'RELATES_TO', strength: 0.6 },
		],
	});
	await engine(page, 'get', { memory_id: ids[0] }, { actor: 'Claude Desktop (relay/stdio)' });
});
afterAll(async () => {
	await app?.close();
});

const CONTROL_ROLES = new Set([
	'button',
	'link',
	'textbox',
	'searchbox',
	'checkbox',
	'radio',
	'combobox',
	'slider',
	'spinbutton',
	'listbox',
	'switch',
	'menuitem',
	'tab',
]);

/** Controls on the current screen without an accessible name, from Chromium's accessibility tree. */
async function unnamedControls(): Promise<string[]> {
	const cdp = await app.browser.context.newCDPSession(page);
	const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[] };
	await cdp.detach();
	return nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? '') && !(n.name?.value ?? '').trim()).map((n) => n.role!.value);
}

async function shoot(name: string): Promise<void> {
	await page.waitForTimeout(400);
	await page.screenshot({ path: join(OUT, `${name}.png`) });
	expect(await unnamedControls(), `unnamed controls on ${name}`).toEqual([]);
}

async function theme(t: 'light' | 'dark'): Promise<void> {
	await page.evaluate((t) => {
		localStorage.setItem('engram.theme', t);
		document.documentElement.dataset.theme = t;
	}, t);
}

describe('screens', () => {
	it('memories, search and the memory page', async () => {
		await theme('light');
		await page.goto(`${app.server.url}/#/`);
		await page.reload();
		await page.getByRole('link', { name: /Reporting on Temporal/ }).waitFor();
		await shoot('memories');
		await page.locator('#search-input').fill('why did invoices change database');
		await page.getByTestId('result').first().waitFor();
		await page.getByRole('button', { name: /Filters/ }).click();
		await page.getByTestId('result').first().getByRole('button', { name: /why\?/ }).click();
		await shoot('search');
		await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(ids[0])}`);
		await page.getByRole('heading', { name: 'Billing moved to PostgreSQL' }).waitFor();
		await page.locator('.related li').first().waitFor();
		await shoot('memory');
		await page.getByRole('button', { name: 'Edit' }).click();
		await shoot('memory-edit');
	});

	it('graph, connections, import/export and settings', async () => {
		await page.goto(`${app.server.url}/#/graph`);
		await page.waitForFunction(
			() => document.querySelectorAll('[data-testid="graph-canvas"] canvas').length > 0 && !document.querySelector('.canvas-wrap .overlay'),
		);
		await page.waitForTimeout(800);
		await shoot('graph');
		await page.goto(`${app.server.url}/#/connections`);
		await page.getByRole('heading', { name: 'Desktop relay' }).waitFor();
		await shoot('connections');
		await page.goto(`${app.server.url}/#/import`);
		await page.getByRole('heading', { name: 'Export', exact: true }).waitFor();
		await shoot('import-export');
		await page.goto(`${app.server.url}/#/settings`);
		await page.getByTestId('active-model').waitFor();
		await shoot('settings');
	});

	it('dark theme and a phone-sized screen', async () => {
		await theme('dark');
		await page.goto(`${app.server.url}/#/`);
		await page.reload();
		await page.getByRole('link', { name: /Reporting on Temporal/ }).waitFor();
		await shoot('memories-dark');
		await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(ids[0])}`);
		await page.getByRole('heading', { name: 'Billing moved to PostgreSQL' }).waitFor();
		await shoot('memory-dark');
		await page.goto(`${app.server.url}/#/graph`);
		await page.waitForFunction(
			() => document.querySelectorAll('[data-testid="graph-canvas"] canvas').length > 0 && !document.querySelector('.canvas-wrap .overlay'),
		);
		await page.waitForTimeout(800);
		await shoot('graph-dark');
		await page.setViewportSize({ width: 390, height: 844 });
		await theme('light');
		await page.goto(`${app.server.url}/#/`);
		await page.reload();
		await page.getByRole('link', { name: /Reporting on Temporal/ }).waitFor();
		await shoot('phone');
		await page.setViewportSize({ width: 1280, height: 800 });
	});
});
