/**
 * The Connections screen helping a person pair a desktop relay by hand, in Chromium: with no
 * relay running it says so in plain words (the port, the command) and keeps trying quietly; a
 * relay with another token is named as such; the desktop-client snippets (Claude Desktop JSON,
 * Claude Code command) stay on screen after pairing, follow the chosen profile and port, and
 * copy; and no console line ever carries the token.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type Primary } from '../../relay/primary';
import { useApp } from './app-support';
import { hostReady } from './bridges-support';
import { ROOT, freePort } from './helpers';

const app = useApp({ path: '/#/connections' });
const consoleLines: string[] = [];
const TOKEN = 'hand-typed-token-0123456789';
const RELAY_TOKEN = 'the-relays-own-token-0123456789';
let primary: Primary | undefined;

const relayCard = () => app.page.locator('section[aria-labelledby="relay-title"]');

async function pairByHand(url: string, token: string): Promise<void> {
	const card = relayCard();
	await card.getByRole('textbox', { name: 'Relay address' }).fill(url);
	await card.getByLabel('Token', { exact: true }).fill(token);
	await card.getByRole('button', { name: 'Pair' }).click();
}

beforeAll(async () => {
	app.page.on('console', (m) => void consoleLines.push(m.text()));
	await hostReady(app.page);
	// The Copy buttons write to the clipboard; record what they write.
	await app.page.evaluate(() => {
		const w = window as unknown as { copied: string[] };
		w.copied = [];
		Object.defineProperty(navigator, 'clipboard', {
			configurable: true,
			value: { writeText: async (t: string) => void w.copied.push(t) },
		});
	});
});
afterAll(async () => {
	await primary?.close();
});

describe('connections screen, desktop relay', () => {
	it('says no relay is listening at the port, with the command to start one, and keeps trying', async () => {
		const port = await freePort();
		await pairByHand(`ws://127.0.0.1:${port}`, TOKEN);
		const problem = relayCard().getByTestId('relay-problem');
		await problem.waitFor();
		await expect.poll(() => problem.innerText()).toContain(`No relay is listening at 127.0.0.1:${port} — start it with npx engram-relay`);
		expect(await problem.locator('code').first().innerText()).toBe('npx engram-relay');
		expect(await relayCard().innerText()).toMatch(/trying again in the background/i);
		expect(await app.page.getByRole('alert').count()).toBe(0);
		// Still retrying, quietly: attempts go up, the words stay.
		const attempts = () =>
			app.page.evaluate(
				() =>
					(
						globalThis as unknown as {
							engramMcpHost: { relay(): { connection?: { attempts: number } } };
						}
					).engramMcpHost.relay().connection?.attempts ?? 0,
			);
		const before = await attempts();
		await expect.poll(attempts, { timeout: 10_000 }).toBeGreaterThan(before);
		expect(consoleLines.join('\n')).not.toContain(TOKEN);
	});

	it('keeps the desktop-client instructions visible once paired, with snippets for the chosen profile', async () => {
		const help = app.page.getByTestId('desktop-clients');
		await help.waitFor();
		await help.getByRole('combobox', { name: 'Profile' }).selectOption('automem');
		const desktop = JSON.parse(await help.getByTestId('snippet-claude-desktop').innerText()) as {
			mcpServers: { engram: { command: string; args: string[] } };
		};
		const port = Number(/:(\d+)$/.exec((await relayUrl())!)![1]);
		expect(desktop.mcpServers.engram.command).toBe('node');
		expect(desktop.mcpServers.engram.args).toEqual(['/path/to/engram/bin/engram-relay.mjs', '--profile', 'automem', '--port', String(port)]);
		expect(await help.getByTestId('snippet-claude-code').innerText()).toBe(
			`claude mcp add engram -- node /path/to/engram/bin/engram-relay.mjs --profile automem --port ${port}`,
		);
		expect(await help.innerText()).toMatch(/Replace \/path\/to\/engram with the folder/);
		expect(await help.innerText()).not.toContain(TOKEN);
	});

	it('fills in the Engram folder when given, and copies each snippet', async () => {
		const help = app.page.getByTestId('desktop-clients');
		await help.getByRole('textbox', { name: 'Engram folder' }).fill('/home/ana/src/engram/');
		await help.getByRole('button', { name: 'Copy the Claude Desktop configuration' }).click();
		await help.getByRole('button', { name: 'Copy the Claude Code command' }).click();
		await expect.poll(() => help.innerText()).toContain('Copied');
		const copied = await app.page.evaluate(() => (window as unknown as { copied: string[] }).copied);
		expect(copied).toHaveLength(2);
		const config = JSON.parse(copied[0]!) as { mcpServers: { engram: { args: string[] } } };
		expect(config.mcpServers.engram.args[0]).toBe('/home/ana/src/engram/bin/engram-relay.mjs');
		expect(copied[1]).toMatch(/^claude mcp add engram -- node \/home\/ana\/src\/engram\/bin\/engram-relay\.mjs --profile automem --port \d+$/);
		if (process.env.ENGRAM_SCREENSHOTS !== undefined) {
			await relayCard().scrollIntoViewIfNeeded();
			await app.page.evaluate(() => document.querySelector('section[aria-labelledby="relay-title"]')?.scrollIntoView());
			await relayCard().screenshot({
				path: join(process.env.ENGRAM_SCREENSHOTS || join(ROOT, 'docs/screenshots'), 'connections.png'),
			});
		}
	});

	it('says the relay refused the token, in words, and never prints the token', async () => {
		const port = await freePort();
		primary = await startPrimary({
			port,
			token: RELAY_TOKEN,
			profile: 'native',
			allowOrigins: [],
			appUrl: app.server.url,
			version: 'test',
			log: () => {},
		});
		await relayCard().getByRole('button', { name: 'Unpair' }).click();
		await pairByHand(`ws://127.0.0.1:${port}`, TOKEN);
		const problem = relayCard().getByTestId('relay-problem');
		await expect.poll(() => problem.innerText(), { timeout: 10_000 }).toContain(`engram-relay at 127.0.0.1:${port} refused this tab’s pairing token`);
		expect(await problem.innerText()).toContain('npx engram-relay --pairing-link');
		expect(consoleLines.join('\n')).not.toContain(TOKEN);
		expect(consoleLines.join('\n')).not.toContain(RELAY_TOKEN);
		expect(await app.page.locator('body').innerText()).not.toContain(TOKEN);
	});

	it('refuses a whole pairing link pasted as the address without putting its token on screen', async () => {
		const unpair = relayCard().getByRole('button', { name: 'Unpair' });
		if (await unpair.isVisible()) await unpair.click();
		await pairByHand(`${app.server.url}/#relay=ws://127.0.0.1:17373&token=${RELAY_TOKEN}`, TOKEN);
		const alert = relayCard().getByRole('alert').first();
		await expect.poll(() => alert.innerText()).toContain(`relay "${app.server.url}" (…) must start with ws://`);
		expect(await app.page.locator('body').innerText()).not.toContain(RELAY_TOKEN);
		expect(consoleLines.join('\n')).not.toContain(RELAY_TOKEN);
		expect(await relayUrl()).toBeUndefined();
	});
});

async function relayUrl(): Promise<string | undefined> {
	return app.page.evaluate(() => (globalThis as unknown as { engramMcpHost: { relay(): { url?: string } } }).engramMcpHost.relay().url);
}
