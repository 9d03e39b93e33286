/**
 * Opens a relay pairing link in headless Chromium and chooses "Pair" in the dialog the app shows,
 * as a person does; then keeps the tab open until stopped (SIGTERM / SIGINT). For
 * scripts/inspector-check.sh: `npx tsx scripts/open-pairing-link.ts LINK`.
 */
import { openPairingLink } from '../test/e2e/bridges-support';
import { launchBrowser } from '../test/e2e/helpers';

const link = process.argv[2];
if (!link?.includes('#relay=')) {
	process.stderr.write('usage: npx tsx scripts/open-pairing-link.ts http://127.0.0.1:PORT/#relay=ws://127.0.0.1:PORT&token=TOKEN\n');
	process.exit(2);
}
const browser = await launchBrowser();
const stop = () => void browser.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
try {
	await openPairingLink(await browser.context.newPage(), link);
	process.stderr.write('paired: the tab stays open until this process is stopped\n');
} catch (e) {
	process.stderr.write(`could not pair: ${(e as Error).message}\n`);
	await browser.close();
	process.exit(1);
}
