/**
 * Time to the first search answer after opening the app, as a person sees it (issue 25): the
 * engine is closed (its snapshot flushed, as a closing tab does), the page reloaded, the query
 * typed into the search box as soon as the box is on screen, and the clock stopped when the
 * first result card is shown. Measured in the page, in ms from the start of navigation, so it
 * holds the UI's start-up, the engine's restore, the search box's debounce and the first recall.
 */
import type { Page } from 'playwright-core';

/** The page's engine handle, as far as this uses it. */
type PageEngine = { __engram: { close(): Promise<void> } };

/** Resolves with performance.now() at the first animation frame that shows a result card (120 s at most). */
const FIRST_RESULT_SHOWN = `new Promise((resolve, reject) => {
	const timeout = setTimeout(() => reject(new Error('no search result shown within 120 s')), 120000);
	const check = () => {
		if (!document.querySelector('[data-testid="result"]')) return void requestAnimationFrame(check);
		clearTimeout(timeout);
		resolve(performance.now());
	};
	check();
})`;

/** Reloads `page` (the built app at its memories view) and returns ms until `query`'s first result shows. */
export async function firstSearchAnswer(page: Page, query: string): Promise<number> {
	await page.evaluate(async () => (globalThis as unknown as PageEngine).__engram.close());
	await page.reload({ waitUntil: 'commit' });
	const box = page.locator('#search-input');
	await box.waitFor({ timeout: 60_000 });
	await box.fill(query);
	// Checked on every frame in the page: the time is that of the first frame that shows a result.
	// A string, not a function: tsx names a function's inner functions with a helper the page lacks.
	return page.evaluate(FIRST_RESULT_SHOWN) as Promise<number>;
}
