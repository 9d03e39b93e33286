/**
 * Runs a string of page code on the built app's origin in headless Chromium and returns what it
 * resolves to: for benches of the browser's own APIs (IndexedDB), with no app code loaded (the
 * manifest is the page). A string, so the bundler's helpers never leak into the browser.
 */
import { launchBrowser, startPreview } from '../../test/e2e/helpers';

export async function runOnAppOrigin<T>(code: string): Promise<T> {
	const server = await startPreview();
	const browser = await launchBrowser({ offlineCapable: false });
	try {
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/manifest.webmanifest`);
		return (await page.evaluate(code)) as T;
	} finally {
		await browser.close();
		await server.stop();
	}
}
