/**
 * The floor under the agent path's WebSocket hop (issue 25): the round trip of one text frame
 * from a Node `ws` server (as engram-relay uses it, no compression, no Nagle) into headless
 * Chromium and straight back, with nothing else on either side. The echo runs in a dedicated
 * worker (where the app's relay socket ends) or on the page, and answers the text as it came
 * or as bytes. What `npm run bench -- --peers` reports as "WebSocket (both ways)" above this
 * floor is the tab's own work around its socket, not the socket.
 *
 *   npx tsx bench/ws-floor.ts [--bytes 600] [--pings 300] [--rounds 3]
 *
 * Prints one JSON line per round: the median round trip in ms for each echo, then the medians.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { launchBrowser } from '../test/e2e/helpers';
import { percentile, round } from './lib/stats';

const arg = (name: string, dflt: number) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const BYTES = arg('bytes', 600);
const PINGS = arg('pings', 300);
const ROUNDS = arg('rounds', 3);

/** The echo, as source for the page and the worker: `mode` 'bytes' answers UTF-8 bytes. */
const ECHO = `(url, mode) => {
	const ws = new WebSocket(url);
	const enc = new TextEncoder();
	ws.onmessage = (e) => ws.send(mode === 'bytes' ? enc.encode(e.data) : e.data);
}`;

function serve(): Promise<Server> {
	const server = createServer((req, res) => {
		const url = JSON.stringify(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
		if (req.url?.startsWith('/echo.js')) {
			res.writeHead(200, { 'content-type': 'text/javascript' });
			res.end(`(${ECHO})(${url}, ${JSON.stringify(req.url.split('?')[1])});`);
			return;
		}
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end(`<script>globalThis.echo = (where, mode) => where === 'worker' ? new Worker('/echo.js?' + mode) : (${ECHO})(${url}, mode);</script>`);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main(): Promise<void> {
	const server = await serve();
	const wss = new WebSocketServer({ server });
	const browser = await launchBrowser();
	const payload = JSON.stringify({ t: 'msg', sid: 's1', m: { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(BYTES) } } });
	const echoes = [
		['worker', 'text'],
		['worker', 'bytes'],
		['page', 'text'],
	] as const;
	const all: Record<string, number[]> = {};
	try {
		for (let r = 0; r < ROUNDS; r++) {
			const line: Record<string, number> = {};
			for (const [where, mode] of echoes) {
				const page = await browser.context.newPage();
				await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
				const connected = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
				await page.evaluate(([w, m]) => (globalThis as unknown as { echo(w: string, m: string): void }).echo(w, m), [where, mode]);
				const ws = await connected;
				const rtt: number[] = [];
				for (let i = 0; i < PINGS; i++) {
					const t = performance.now();
					await new Promise((resolve) => {
						ws.once('message', resolve);
						ws.send(payload);
					});
					rtt.push(performance.now() - t);
					// Apart, as an agent's calls are: a socket kept busy would measure throughput instead.
					await new Promise((resolve) => setTimeout(resolve, 5));
				}
				await page.close();
				const key = `${where} ${mode}`;
				line[key] = round(percentile(rtt, 50), 3);
				(all[key] ??= []).push(line[key]);
			}
			console.log(JSON.stringify({ round: r + 1, bytes: payload.length, rtt_p50_ms: line }));
		}
		console.log(
			JSON.stringify({
				bytes: payload.length,
				rtt_p50_ms_median: Object.fromEntries(Object.entries(all).map(([k, v]) => [k, round(percentile(v, 50), 3)])),
			}),
		);
	} finally {
		await browser.close();
		wss.close();
		server.close();
	}
}

main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
