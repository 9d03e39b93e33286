/**
 * The graph view draws memories, entities and links on a canvas (cytoscape) around a memory,
 * around a search and across the latest memories, and a click on a memory opens it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { engine, seed, SAMPLE, useApp } from './app-support';

const app = useApp();
let ids: string[];
const warnings: string[] = [];

beforeAll(async () => {
	app.page.on('console', (m) => {
		if (m.type() === 'warning') warnings.push(m.text());
	});
	ids = await seed(app.page, SAMPLE);
	await engine(app.page, 'associate', { memory1_id: ids[3], memory2_id: ids[1], type: 'DERIVED_FROM', strength: 0.9 });
});

/** Counts canvas pixels that differ from the first pixel (the background). */
async function paintedPixels(): Promise<number> {
	return app.page.evaluate(() => {
		let painted = 0;
		for (const canvas of document.querySelectorAll<HTMLCanvasElement>('[data-testid="graph-canvas"] canvas')) {
			const ctx = canvas.getContext('2d');
			if (!ctx || canvas.width === 0) continue;
			const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
			for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
		}
		return painted;
	});
}

async function waitDrawn(): Promise<void> {
	await app.page.waitForFunction(() => !document.querySelector('.canvas-wrap .overlay'));
	await app.page.waitForFunction(() => document.querySelectorAll('[data-testid="graph-canvas"] canvas').length > 0);
	await app.page.waitForTimeout(300);
}

describe('graph view', () => {
	it('draws the latest memories with their entities on a non-empty canvas', async () => {
		await app.page.goto(`${app.server.url}/#/graph`);
		await waitDrawn();
		const sub = await app.page.locator('.sub').innerText();
		expect(sub).toMatch(new RegExp(`${SAMPLE.length} memories`));
		expect(await paintedPixels()).toBeGreaterThan(1000);
	});

	it('draws the neighbourhood of one memory, including its authored link', async () => {
		await app.page.goto(`${app.server.url}/#/graph/${encodeURIComponent(ids[1])}`);
		await waitDrawn();
		expect(await app.page.locator('.sub').innerText()).toContain('Around one memory');
		const n = await app.page.evaluate(() => {
			const text = document.querySelector('.sub')?.textContent ?? '';
			return Number(/(\d+) links?\b/.exec(text)?.[1] ?? 0);
		});
		expect(n).toBeGreaterThanOrEqual(1);
		expect(await paintedPixels()).toBeGreaterThan(500);
	});

	it('draws around a search and opens a memory on click', async () => {
		await app.page.goto(`${app.server.url}/#/graph?q=${encodeURIComponent('billing invoices')}`);
		await waitDrawn();
		expect(await app.page.locator('.sub').innerText()).toContain('Around “billing invoices”');
		const box = await app.page.getByTestId('graph-canvas').boundingBox();
		// The focus of the layout is arbitrary; find a memory node's rendered position and click it.
		const pos = await app.page.evaluate(() => {
			const el = document.querySelector('[data-testid="graph-canvas"]') as HTMLElement & {
				_cyreg?: { cy?: { nodes(s: string): { renderedPosition(): { x: number; y: number } }[] } };
			};
			const cy = el._cyreg?.cy;
			const node = cy?.nodes('.memory')[0];
			return node ? node.renderedPosition() : undefined;
		});
		expect(pos).toBeDefined();
		await app.page.mouse.click(box!.x + pos!.x, box!.y + pos!.y);
		await app.page.waitForURL(/#\/memory\//);
	});

	/** Every memory node: rendered label size, box and centre, in page coordinates. */
	async function memoryNodes() {
		return app.page.evaluate(() => {
			type Node = {
				style(k: string): string;
				renderedBoundingBox(): { x1: number; y1: number; x2: number; y2: number };
				renderedPosition(): { x: number; y: number };
				data(k: string): string;
			};
			const el = document.querySelector('[data-testid="graph-canvas"]') as HTMLElement & {
				_cyreg?: { cy?: { zoom(): number; nodes(s: string): Node[] } };
			};
			const cy = el._cyreg!.cy!;
			const r = el.getBoundingClientRect();
			return cy.nodes('.memory').map((n) => {
				const b = n.renderedBoundingBox();
				const p = n.renderedPosition();
				return {
					px: parseFloat(n.style('font-size')) * cy.zoom(),
					box: { x1: r.x + b.x1, y1: r.y + b.y1, x2: r.x + b.x2, y2: r.y + b.y2 },
					x: r.x + p.x,
					y: r.y + p.y,
					label: n.data('label'),
				};
			});
		});
	}

	it('labels are readable at the default zoom, the legend covers no node, no wheel warning', async () => {
		await app.page.goto(`${app.server.url}/#/graph`);
		await waitDrawn();
		const nodes = await memoryNodes();
		expect(nodes.length).toBe(SAMPLE.length);
		for (const n of nodes) expect(n.px).toBeGreaterThanOrEqual(11);
		const legend = (await app.page.getByRole('list', { name: 'Legend' }).boundingBox())!;
		for (const { box } of nodes) {
			const apart = box.x2 < legend.x || box.x1 > legend.x + legend.width || box.y2 < legend.y || box.y1 > legend.y + legend.height;
			expect(apart).toBe(true);
		}
		expect(warnings.filter((w) => /wheel/i.test(w))).toEqual([]);
	});

	it('shows hover details next to the node', async () => {
		await app.page.goto(`${app.server.url}/#/graph`);
		await waitDrawn();
		const [n] = await memoryNodes();
		await app.page.mouse.move(n.x, n.y);
		const tip = app.page.getByTestId('graph-tooltip');
		await tip.waitFor();
		const box = (await tip.boundingBox())!;
		expect(Math.hypot(box.x - n.x, box.y - n.y)).toBeLessThan(60);
		expect(await tip.innerText()).toContain(n.label.replace('…', ''));
	});

	it('draws only the neighbourhood of a search', async () => {
		await app.page.goto(`${app.server.url}/#/graph?q=${encodeURIComponent('PostgreSQL')}`);
		await waitDrawn();
		const labels = (await memoryNodes()).map((n) => n.label);
		expect(labels).toContain('Billing moved to PostgreSQL');
		// The invoice insight is linked to it (DERIVED_FROM): its neighbourhood.
		expect(labels.some((l) => l.startsWith('Invoice totals'))).toBe(true);
		expect(labels.length).toBeLessThan(SAMPLE.length);
	});

	/** Every node's id and model position (not the zoomed, rendered one). */
	function positions() {
		return app.page.evaluate(() => {
			type Node = { id(): string; position(): { x: number; y: number } };
			const el = document.querySelector('[data-testid="graph-canvas"]') as HTMLElement & { _cyreg?: { cy?: { nodes(): Node[] } } };
			return Object.fromEntries(el._cyreg!.cy!.nodes().map((n) => [n.id(), n.position()]));
		});
	}

	it("places an agent's new memory beside what is drawn, without laying the graph out again", async () => {
		await app.page.goto(`${app.server.url}/#/graph`);
		await waitDrawn();
		const before = await positions();
		const { memory_id } = await engine<{ memory_id: string }>(app.page, 'store', { content: 'Billing moved to PostgreSQL 16 after the audit' });
		await expect.poll(async () => Object.keys(await positions()), { timeout: 10_000 }).toContain(memory_id);
		const after = await positions();
		// Every node that was drawn stays where the person saw it.
		for (const [id, p] of Object.entries(before)) expect(after[id], id).toEqual(p);
		expect(await app.page.locator('.sub').innerText()).toMatch(new RegExp(`${SAMPLE.length + 1} memories`));
		// Near the drawing, not off in a corner.
		const xs = Object.values(before).map((p) => p.x);
		const ys = Object.values(before).map((p) => p.y);
		const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 100);
		expect(after[memory_id].x).toBeGreaterThan(Math.min(...xs) - span);
		expect(after[memory_id].x).toBeLessThan(Math.max(...xs) + span);
		expect(after[memory_id].y).toBeGreaterThan(Math.min(...ys) - span);
		expect(after[memory_id].y).toBeLessThan(Math.max(...ys) + span);
		await engine(app.page, 'delete', { memory_id });
		await expect.poll(async () => Object.keys(await positions()), { timeout: 10_000 }).not.toContain(memory_id);
	});

	it('reaches memory nodes by keyboard: Tab to the graph, arrows move an outlined node, Enter opens it', async () => {
		await app.page.goto(`${app.server.url}/#/graph`);
		await waitDrawn();
		const keyed = () =>
			app.page.evaluate(() => {
				const el = document.querySelector('[data-testid="graph-canvas"]') as HTMLElement & {
					_cyreg?: { cy?: { nodes(s: string): { data(k: string): string; style(k: string): string }[] } };
				};
				const n = el._cyreg!.cy!.nodes('.keyed');
				return n.map((x) => ({ id: x.data('memoryId'), label: x.data('label'), border: parseFloat(x.style('border-width')) }));
			});
		await app.page.getByLabel('Graph search').focus();
		for (let i = 0; i < 12 && !(await app.page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'graph-canvas')); i++)
			await app.page.keyboard.press('Tab');
		expect(await app.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('graph-canvas');
		// Visible focus: the canvas is outlined and one memory node is ringed, its card shown, its name said.
		expect(await app.page.getByTestId('graph-canvas').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
		const first = await keyed();
		expect(first).toHaveLength(1);
		expect(first[0].border).toBeGreaterThanOrEqual(4);
		expect(await app.page.getByTestId('graph-tooltip').innerText()).toContain(first[0].label.replace('…', ''));
		expect(await app.page.locator('#graph-keyed').textContent()).toBe(`${first[0].label}: press Enter to open`);
		// Arrow keys move to other memories; over the four ways every memory's neighbour is reached.
		const seen = new Set([first[0].id]);
		for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown']) {
			await app.page.keyboard.press(key);
			const now = await keyed();
			expect(now).toHaveLength(1);
			seen.add(now[0].id);
		}
		expect(seen.size).toBeGreaterThan(1);
		const target = (await keyed())[0].id;
		await app.page.keyboard.press('Enter');
		await app.page.waitForURL(new RegExp(`#/memory/${encodeURIComponent(target)}$`));
	});

	// Last: it empties the database the tests above share.
	it('counts one memory as "1 memory", not "1 memories"', async () => {
		await engine(app.page, 'wipe');
		await seed(app.page, [{ content: 'a lone note' }]);
		await app.page.goto(`${app.server.url}/#/graph`);
		await app.page.reload();
		await waitDrawn();
		expect(await app.page.locator('.sub').innerText()).toContain('Latest memories · 1 memory · 0 entities · 0 links');
		expect(await app.page.getByTestId('graph-canvas').getAttribute('aria-label')).toBe(
			'Graph of 1 memory and 0 entities; click a memory to open it, or use the arrow keys and Enter',
		);
	});
});
