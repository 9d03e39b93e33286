/**
 * Relay pairing links in Chromium: a link (opened in the address bar or set as the hash by a page)
 * only asks, paired or not, naming the relay it points at (and the one it replaces), and nothing is
 * stored until "Pair" / "Replace pairing"; "Cancel" leaves the app unpaired.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, openApp, type AppFixture } from './app-support';
import { hostReady } from './bridges-support';

let app: AppFixture;
let page: Page;

const TOKEN = 'first-relay-token-0123456789';
const ATTACKER = 'other-relay-token-0123456789';

/**
 * Opens a pairing link in the page already open (a same-page `hashchange`) and waits for the
 * dialog titled `title`. In 3 of 10 runs on 2026-12-08 such a dialog closed as it showed: the close
 * event of the dialog just cancelled came after the new one opened, and declined it (fixed in
 * dialog.svelte; 0 of 6 runs after). Should it happen again, a dialog missing after 15 s is
 * reported on stderr and the link opened once more, and a second miss fails the test.
 */
async function openLinkHere(page: Page, link: string, title: string) {
	const dialog = page.getByRole('dialog', { name: title });
	for (let attempt = 1; ; attempt++) {
		await page.goto(link);
		try {
			await dialog.waitFor({ timeout: 15_000 });
			return dialog;
		} catch (e) {
			if (attempt === 2) throw e;
			console.error(`app-pairing: no "${title}" dialog 15 s after a same-page pairing link; opening it again (cause not found)`);
			await page.goto(page.url().replace(/#.*$/, ''));
		}
	}
}

interface Stored {
	url: string;
	token: string;
	paired_at: string;
}

function relay(): Promise<{ url?: string; offer?: { url: string } }> {
	return page.evaluate(() => (globalThis as unknown as { engramMcpHost: { relay(): { url?: string; offer?: { url: string } } } }).engramMcpHost.relay());
}

beforeAll(async () => {
	app = await openApp('/');
	page = app.page;
	await hostReady(page);
});
afterAll(async () => {
	await app?.close();
});

describe('relay pairing links', () => {
	it('asks before a link pairs an unpaired app, storing nothing; Cancel leaves it unpaired, Pair pairs', async () => {
		// What any page can do: send the person (or a window it opened) to a pairing link.
		const dialog = await openLinkHere(page, `${app.server.url}/#relay=ws://127.0.0.1:9&token=${TOKEN}`, 'Pair with a desktop relay?');
		expect(page.url()).toBe(`${app.server.url}/`);
		expect(await dialog.getByTestId('relay-link-new').innerText()).toBe('127.0.0.1:9');
		const words = await dialog.innerText();
		expect(words).toContain('Whatever program listens on 127.0.0.1:9 would be able to read and change every memory.');
		expect(words).toContain('Nothing is saved until you choose.');
		expect(words).not.toContain(TOKEN);
		expect(await engine(page, 'getSetting', 'relay_pairing')).toBeUndefined();
		expect((await relay()).url).toBeUndefined();
		if (process.env.ENGRAM_SCREENSHOTS) await page.screenshot({ path: join(process.env.ENGRAM_SCREENSHOTS || tmpdir(), 'pairing-first.png') });

		await dialog.getByRole('button', { name: 'Cancel' }).click();
		await dialog.waitFor({ state: 'hidden' });
		expect(await engine(page, 'getSetting', 'relay_pairing')).toBeUndefined();
		expect(await relay()).toEqual({});

		// The same link again, now accepted with one click.
		await openLinkHere(page, `${app.server.url}/#relay=ws://127.0.0.1:9&token=${TOKEN}`, 'Pair with a desktop relay?');
		await dialog.getByRole('button', { name: 'Pair', exact: true }).click();
		await dialog.waitFor({ state: 'hidden' });
		expect((await engine<Stored>(page, 'getSetting', 'relay_pairing')).url).toBe('ws://127.0.0.1:9');
		expect((await relay()).url).toBe('ws://127.0.0.1:9');
		await page.evaluate(() => (globalThis as unknown as { engramMcpHost: { unpairRelay(): Promise<void> } }).engramMcpHost.unpairRelay());
	});

	it('asks before a link replaces the pairing, storing nothing; "Keep current" keeps it', async () => {
		await page.evaluate(
			(token) =>
				(globalThis as unknown as { engramMcpHost: { pairRelay(u: string, t: string): Promise<void> } }).engramMcpHost.pairRelay(
					'ws://127.0.0.1:9',
					token,
				),
			TOKEN,
		);
		const before = await engine<Stored>(page, 'getSetting', 'relay_pairing');
		expect(before).toMatchObject({ url: 'ws://127.0.0.1:9', token: TOKEN });

		// What another page can do: send the person (or a window it opened) to a pairing link.
		const dialog = await openLinkHere(page, `${app.server.url}/#relay=ws://127.0.0.1:1&token=${ATTACKER}`, 'Replace the relay pairing?');
		expect(await dialog.getByTestId('relay-link-new').innerText()).toBe('127.0.0.1:1');
		expect(await dialog.getByTestId('relay-link-current').innerText()).toBe('127.0.0.1:9');
		expect(page.url()).toBe(`${app.server.url}/`);
		expect(await engine(page, 'getSetting', 'relay_pairing')).toEqual(before);
		expect((await relay()).url).toBe('ws://127.0.0.1:9');
		if (process.env.ENGRAM_SCREENSHOTS) await page.screenshot({ path: join(process.env.ENGRAM_SCREENSHOTS || tmpdir(), 'pairing-dialog.png') });

		await dialog.getByRole('button', { name: 'Keep current' }).click();
		await dialog.waitFor({ state: 'hidden' });
		expect(await engine(page, 'getSetting', 'relay_pairing')).toEqual(before);
		expect(await relay()).toMatchObject({ url: 'ws://127.0.0.1:9' });
		expect((await relay()).offer).toBeUndefined();
	});

	it('asks on a fresh load at a link too, and replaces only when confirmed', async () => {
		await page.goto('about:blank');
		await page.goto(`${app.server.url}/#relay=ws://127.0.0.1:3&token=${ATTACKER}`);
		const dialog = page.getByRole('dialog', { name: 'Replace the relay pairing?' });
		await dialog.waitFor();
		expect(await dialog.getByTestId('relay-link-new').innerText()).toBe('127.0.0.1:3');
		expect((await engine<Stored>(page, 'getSetting', 'relay_pairing')).token).toBe(TOKEN);
		await dialog.getByRole('button', { name: 'Replace pairing' }).click();
		await dialog.waitFor({ state: 'hidden' });
		expect(await engine<Stored>(page, 'getSetting', 'relay_pairing')).toMatchObject({
			url: 'ws://127.0.0.1:3',
			token: ATTACKER,
		});
		expect((await relay()).url).toBe('ws://127.0.0.1:3');
		expect(app.errors.filter((e) => !/WebSocket/.test(e))).toEqual([]);
	});

	it('takes the token off the address bar before the engine starts, and still reads the link', async () => {
		const fresh = await app.browser.context.newPage();
		// The page's scripts have all run by DOMContentLoaded; the engine takes seconds more.
		await fresh.addInitScript(() =>
			document.addEventListener('DOMContentLoaded', () => {
				(window as unknown as { __atReady: string }).__atReady = location.href;
			}),
		);
		await fresh.goto(`${app.server.url}/#relay=ws://127.0.0.1:2&token=${ATTACKER}-later`);
		expect(await fresh.evaluate(() => (window as unknown as { __atReady: string }).__atReady)).toBe(`${app.server.url}/`);
		const dialog = fresh.getByRole('dialog', { name: 'Replace the relay pairing?' });
		await dialog.waitFor();
		expect(await dialog.getByTestId('relay-link-new').innerText()).toBe('127.0.0.1:2');
		await dialog.getByRole('button', { name: 'Keep current' }).click();
		await dialog.waitFor({ state: 'hidden' });
		expect(fresh.url()).toBe(`${app.server.url}/`);
		await fresh.close();
	});
});
