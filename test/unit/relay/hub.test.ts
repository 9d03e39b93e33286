/**
 * The relay's routing logic, with the tab and the clients as recording stand-ins: what each side
 * receives, in which order, and what the relay answers by itself.
 */
import { describe, expect, it, vi } from 'vitest';
import { Hub, MAX_FORWARD_CHARS, TAB_IN_FLIGHT, TAB_IN_FLIGHT_PER_SESSION, type TabLink } from '../../../relay/hub';
import type { Message } from '../../../relay/jsonrpc';

const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: {
		protocolVersion: '2025-06-18',
		capabilities: {},
		clientInfo: { name: 'Claude Code', version: '2.1' },
	},
} as const;

/** A hub with one stdio session; no wait for a tab unless `tabGraceMs` is given. */
function setup(tabGraceMs = 0) {
	const logs: string[] = [];
	const hub = new Hub({
		port: 17373,
		version: '9.9.9',
		appUrl: 'http://127.0.0.1:4173',
		log: (l) => logs.push(l),
		tabGraceMs,
	});
	const out: (Message | Message[])[] = [];
	const session = hub.openSession('stdio', 'automem', { deliver: (m) => out.push(m) });
	return { hub, session, out, logs };
}

/** A tab that records the envelopes it is sent. */
function tab() {
	const frames: Record<string, unknown>[] = [];
	const closed: { code: number; reason: string }[] = [];
	const link: TabLink = {
		send: (t) => frames.push(JSON.parse(t)),
		close: (code, reason) => closed.push({ code, reason }),
	};
	return { link, frames, closed, msgs: () => frames.filter((f) => f.t === 'msg').map((f) => f.m) };
}

const reply = (hub: Hub, link: TabLink, sid: string, m: unknown) => hub.fromTab(link, JSON.stringify({ t: 'msg', sid, m }));

describe('Hub', () => {
	describe('with no tab paired', () => {
		it('completes the handshake itself, negotiating the client’s protocol version', () => {
			const { hub, session, out } = setup();
			hub.fromClient(session.sid, INIT);
			expect(out).toEqual([
				{
					jsonrpc: '2.0',
					id: 0,
					result: expect.objectContaining({
						protocolVersion: '2025-06-18',
						capabilities: { tools: { listChanged: true } },
						serverInfo: { name: 'engram', version: '9.9.9' },
					}),
				},
			]);
		});

		it('answers ping, and every other request with a clear not-connected error', () => {
			const { hub, session, out } = setup();
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 1, method: 'ping' });
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
			hub.fromClient(session.sid, {
				jsonrpc: '2.0',
				id: 'x',
				method: 'tools/call',
				params: { name: 'recall_memory' },
			});
			hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
			expect(out[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
			const notConnected =
				'Engram is not connected: no Engram tab is paired with engram-relay on port 17373. Open the Engram app ' +
				'(http://127.0.0.1:4173) with its pairing link (`npx engram-relay --pairing-link` in the Engram folder prints it), keep that tab open, then retry.';
			expect(out[1]).toEqual({
				jsonrpc: '2.0',
				id: 2,
				error: { code: -32000, message: notConnected },
			});
			expect(out[2]).toEqual({
				jsonrpc: '2.0',
				id: 'x',
				error: { code: -32000, message: notConnected },
			});
			expect(out).toHaveLength(3);
		});

		it('holds a request made just after it started until a tab pairs, and hands it to the tab', () => {
			const { hub, session, out } = setup(5000);
			hub.fromClient(session.sid, INIT);
			hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 2, method: 'ping' });
			// The handshake and ping are answered; the list waits.
			expect(out.map((m) => (m as Message).id)).toEqual([0, 2]);
			const t = tab();
			hub.attachTab(t.link);
			expect(t.msgs()).toEqual([
				expect.objectContaining({ method: 'initialize' }),
				{ jsonrpc: '2.0', method: 'notifications/initialized' },
				{ jsonrpc: '2.0', id: 1, method: 'tools/list' },
			]);
			reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 1, result: { tools: [] } });
			expect(out.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
		});

		it('answers a held request "not connected" once the wait is over, and later ones at once', () => {
			vi.useFakeTimers();
			try {
				const { hub, session, out } = setup(5000);
				hub.fromClient(session.sid, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
				vi.advanceTimersByTime(4999);
				expect(out).toEqual([]);
				vi.advanceTimersByTime(1);
				expect(out).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringContaining('Engram is not connected') } }]);
				hub.fromClient(session.sid, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
				expect(out).toHaveLength(2);
				// A tab that leaves opens the wait again: a reloaded tab comes back.
				const t = tab();
				hub.attachTab(t.link);
				hub.detachTab(t.link);
				hub.fromClient(session.sid, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
				expect(out).toHaveLength(2);
				const again = tab();
				hub.attachTab(again.link);
				expect(again.msgs()).toContainEqual({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
			} finally {
				vi.useRealTimers();
			}
		});

		it('drops a request cancelled while it waits for a tab: never sent to the tab that pairs, never answered', () => {
			vi.useFakeTimers();
			try {
				const { hub, session, out } = setup(5000);
				const store = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'store_memory', arguments: { content: 'x' } } };
				hub.fromClient(session.sid, store);
				hub.fromClient(session.sid, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
				hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timeout' } });
				const t = tab();
				hub.attachTab(t.link);
				expect(t.msgs()).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
				reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 2, result: { tools: [] } });
				// Nor is a held request that the wait ends on answered after its cancel.
				hub.detachTab(t.link);
				hub.fromClient(session.sid, { ...store, id: 3 });
				hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
				vi.advanceTimersByTime(5000);
				expect(out).toEqual([{ jsonrpc: '2.0', id: 2, result: { tools: [] } }]);
			} finally {
				vi.useRealTimers();
			}
		});

		it('answers a batch without the member cancelled while it waited for a tab', () => {
			const { hub, session, out } = setup(5000);
			hub.fromClient(session.sid, [
				{ jsonrpc: '2.0', id: 'a', method: 'tools/list' },
				{ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'store_memory', arguments: { content: 'x' } } },
			]);
			hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'b' } });
			const t = tab();
			hub.attachTab(t.link);
			expect(t.msgs()).toEqual([{ jsonrpc: '2.0', id: 'a', method: 'tools/list' }]);
			reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 'a', result: { tools: [] } });
			expect(out).toEqual([[{ jsonrpc: '2.0', id: 'a', result: { tools: [] } }]]);
		});

		it('answers a held request truthfully when the relay shuts down', () => {
			const { hub, session, out } = setup(5000);
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'recall_memory', arguments: { query: 'x' } } });
			hub.failAllPending('engram-relay is shutting down');
			expect(out).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringContaining('Engram is not connected') } }]);
		});

		it('answers a message that is not JSON-RPC with Invalid Request', () => {
			const { hub, session, out } = setup();
			hub.fromClient(session.sid, { jsonrpc: '1.0', id: 3, method: 'ping' });
			hub.fromClient(session.sid, 42);
			hub.fromClient(session.sid, []);
			expect(out).toEqual([
				{
					jsonrpc: '2.0',
					id: 3,
					error: { code: -32600, message: 'Invalid Request: jsonrpc must be "2.0"' },
				},
				{
					jsonrpc: '2.0',
					error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be an object' },
				},
				{ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: empty batch' } },
			]);
		});
	});

	describe('with a tab paired', () => {
		it('opens the session on the tab with its profile and client, then passes messages through untouched', () => {
			const { hub, session, out } = setup();
			const t = tab();
			hub.attachTab(t.link);
			hub.fromClient(session.sid, INIT);
			expect(t.frames).toEqual([
				{ t: 'welcome', relay: { version: '9.9.9', port: 17373 } },
				{
					t: 'open',
					session: {
						sid: 'stdio-1',
						kind: 'stdio',
						profile: 'automem',
						client: { name: 'Claude Code', version: '2.1' },
					},
				},
				{ t: 'msg', sid: 'stdio-1', m: INIT },
			]);
			const answer = {
				jsonrpc: '2.0',
				id: 0,
				result: {
					protocolVersion: '2025-06-18',
					capabilities: {},
					serverInfo: { name: 'engram', version: '1' },
				},
			};
			reply(hub, t.link, 'stdio-1', answer);
			expect(out).toEqual([answer]);
		});

		it('returns a batch’s answers as one array in input order, whatever order the tab answers in', () => {
			const { hub, session, out } = setup();
			const t = tab();
			hub.attachTab(t.link);
			hub.fromClient(session.sid, [
				{ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'store_memory' } },
				{ jsonrpc: '2.0', method: 'notifications/progress' },
				{ jsonrpc: '1.0', id: 'bad' },
				{ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'recall_memory' } },
			]);
			expect(t.msgs().map((m) => (m as { id?: string }).id)).toEqual(['a', undefined, 'b']);
			reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 'b', result: { n: 2 } });
			expect(out).toEqual([]);
			reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 'a', result: { n: 1 } });
			expect(out).toEqual([
				[
					{ jsonrpc: '2.0', id: 'a', result: { n: 1 } },
					{
						jsonrpc: '2.0',
						id: 'bad',
						error: { code: -32600, message: 'Invalid Request: jsonrpc must be "2.0"' },
					},
					{ jsonrpc: '2.0', id: 'b', result: { n: 2 } },
				],
			]);
		});

		it('has no timeout of its own: an answer arriving much later still reaches the client', () => {
			vi.useFakeTimers();
			try {
				const { hub, session, out } = setup();
				const t = tab();
				hub.attachTab(t.link);
				hub.fromClient(session.sid, { jsonrpc: '2.0', id: 9, method: 'tools/call' });
				// A day passes: any timer the hub had set would have fired and answered by now.
				vi.advanceTimersByTime(24 * 3600_000);
				expect(out).toEqual([]);
				reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 9, result: { late: true } });
				expect(out).toEqual([{ jsonrpc: '2.0', id: 9, result: { late: true } }]);
			} finally {
				vi.useRealTimers();
			}
		});

		it('passes server-initiated requests and notifications to the client, and the client’s answers back', () => {
			const { hub, session, out } = setup();
			const t = tab();
			hub.attachTab(t.link);
			hub.fromClient(session.sid, INIT);
			reply(hub, t.link, session.sid, { jsonrpc: '2.0', id: 100, method: 'ping' });
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 100, result: {} });
			expect(out).toEqual([{ jsonrpc: '2.0', id: 100, method: 'ping' }]);
			expect(t.msgs().at(-1)).toEqual({ jsonrpc: '2.0', id: 100, result: {} });
		});

		it('replaces an answer too large for stdio clients with an error saying what to do', () => {
			const { hub, session, out } = setup();
			const t = tab();
			hub.attachTab(t.link);
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 1, method: 'tools/call' });
			reply(hub, t.link, session.sid, {
				jsonrpc: '2.0',
				id: 1,
				result: { text: 'x'.repeat(MAX_FORWARD_CHARS) },
			});
			expect(out).toEqual([
				{
					jsonrpc: '2.0',
					id: 1,
					error: {
						code: -32603,
						message: 'The answer is too large to forward (8.0 MiB; the limit is 8 MiB): ask for fewer results or shorter content.',
					},
				},
			]);
		});

		it('tells the tab when a client leaves', () => {
			const { hub, session } = setup();
			const t = tab();
			hub.attachTab(t.link);
			hub.fromClient(session.sid, INIT);
			hub.closeSession(session.sid);
			expect(t.frames.at(-1)).toEqual({
				t: 'close',
				sid: session.sid,
				reason: 'client disconnected',
			});
			expect(hub.sessions).toEqual([]);
		});

		it('ignores frames for unknown sessions and logs malformed ones', () => {
			const { hub, out, logs } = setup();
			const t = tab();
			hub.attachTab(t.link);
			reply(hub, t.link, 'nobody', { jsonrpc: '2.0', id: 1, result: {} });
			hub.fromTab(t.link, '{"t":"msg"}');
			hub.fromTab(t.link, 'not json');
			expect(out).toEqual([]);
			expect(logs.slice(-2)).toEqual([
				'ignored a frame from the tab: relay envelope: sid Invalid input: expected string, received undefined',
				'ignored a frame from the tab: relay envelope is not valid JSON',
			]);
		});
	});

	describe('when the tab goes away and comes back', () => {
		it('fails the calls in flight with a clear error, then re-initialises every client on the new tab', () => {
			const { hub, session, out } = setup();
			const first = tab();
			hub.attachTab(first.link);
			hub.fromClient(session.sid, INIT);
			reply(hub, first.link, session.sid, { jsonrpc: '2.0', id: 0, result: {} });
			hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 5, method: 'tools/call' });
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 7, method: 'tools/list' });
			out.length = 0;

			hub.detachTab(first.link);
			expect(out).toEqual([
				{
					jsonrpc: '2.0',
					id: 5,
					error: {
						code: -32000,
						message:
							'The Engram tab went away (reloaded or closed) before this call was answered: unknown whether it was applied. Check with get_memory (or recall_memory), or resend it with the same request_id.',
					},
				},
				{
					jsonrpc: '2.0',
					id: 7,
					error: {
						code: -32000,
						message: 'The Engram tab went away (reloaded or closed) before this request was answered; it changes nothing, so retry it.',
					},
				},
			]);
			out.length = 0;

			const second = tab();
			hub.attachTab(second.link);
			const replayed = second.msgs();
			expect(second.frames[1]).toEqual({
				t: 'open',
				session: expect.objectContaining({ sid: session.sid, profile: 'automem' }),
			});
			expect(replayed).toEqual([
				{ ...INIT, id: 'engram-relay:replay:1' },
				{ jsonrpc: '2.0', method: 'notifications/initialized' },
			]);
			expect(out).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
			// The replayed handshake's answer is the relay's business, not the client's.
			reply(hub, second.link, session.sid, {
				jsonrpc: '2.0',
				id: 'engram-relay:replay:1',
				result: {},
			});
			expect(out).toHaveLength(1);
			hub.fromClient(session.sid, { jsonrpc: '2.0', id: 6, method: 'tools/list' });
			reply(hub, second.link, session.sid, { jsonrpc: '2.0', id: 6, result: { tools: [] } });
			expect(out.at(-1)).toEqual({ jsonrpc: '2.0', id: 6, result: { tools: [] } });
		});

		it('replays a handshake it answered alone, once a tab pairs', () => {
			const { hub, session, out } = setup();
			hub.fromClient(session.sid, INIT);
			hub.fromClient(session.sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
			const t = tab();
			hub.attachTab(t.link);
			expect(t.msgs()).toEqual([
				{ ...INIT, id: 'engram-relay:replay:1' },
				{ jsonrpc: '2.0', method: 'notifications/initialized' },
			]);
			expect(out.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
		});

		it('lets a newer tab take over, telling the old one not to reconnect', () => {
			const { hub } = setup();
			const first = tab();
			const second = tab();
			hub.attachTab(first.link);
			hub.attachTab(second.link);
			expect(first.closed).toEqual([{ code: 4001, reason: 'another Engram tab paired with this relay' }]);
			expect(hub.tabConnected).toBe(true);
			hub.detachTab(first.link);
			expect(hub.tabConnected).toBe(true);
		});
	});

	describe('fair forwarding to the tab', () => {
		const call = (id: number | string, name = 'export_memories') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
		const idsAtTab = (t: ReturnType<typeof tab>) => t.frames.filter((f) => f.t === 'msg').map((f) => `${f.sid as string}:${(f.m as { id: unknown }).id}`);

		function paired() {
			const { hub, session, out } = setup();
			const t = tab();
			hub.attachTab(t.link);
			const b: (Message | Message[])[] = [];
			const light = hub.openSession('http', 'native', { deliver: (m) => b.push(m) }, 'light');
			return { hub, greedy: session, out, t, light, b };
		}

		it(`sends a session's requests ${TAB_IN_FLIGHT_PER_SESSION} at a time, so another client's call goes to the tab at once`, () => {
			const { hub, greedy, t, light, b } = paired();
			for (let i = 1; i <= 64; i++) hub.fromClient(greedy.sid, call(i));
			expect(idsAtTab(t)).toEqual(Array.from({ length: TAB_IN_FLIGHT_PER_SESSION }, (_, i) => `${greedy.sid}:${i + 1}`));
			hub.fromClient(light.sid, call('mine', 'get_memory'));
			expect(idsAtTab(t).at(-1)).toBe('light:mine');
			reply(hub, t.link, 'light', { jsonrpc: '2.0', id: 'mine', result: { content: [] } });
			expect(b).toEqual([{ jsonrpc: '2.0', id: 'mine', result: { content: [] } }]);
			// Each answer lets the next waiting request of that session go, in order.
			reply(hub, t.link, greedy.sid, { jsonrpc: '2.0', id: 1, result: {} });
			expect(idsAtTab(t).at(-1)).toBe(`${greedy.sid}:${TAB_IN_FLIGHT_PER_SESSION + 1}`);
			expect(idsAtTab(t)).toHaveLength(TAB_IN_FLIGHT_PER_SESSION + 2);
		});

		it(`keeps at most ${TAB_IN_FLIGHT} requests at the tab, and sessions with requests waiting take turns`, () => {
			const { hub, t, light } = paired();
			const sids = Array.from({ length: TAB_IN_FLIGHT / TAB_IN_FLIGHT_PER_SESSION + 1 }, (_, i) => `s${i}`);
			for (const sid of sids) hub.openSession('http', 'native', { deliver: () => {} }, sid);
			for (const sid of sids) for (let i = 1; i <= 10; i++) hub.fromClient(sid, call(i));
			const last = sids.at(-1)!;
			expect(idsAtTab(t)).toHaveLength(TAB_IN_FLIGHT);
			expect(idsAtTab(t).filter((x) => x.startsWith(`${last}:`))).toEqual([]);
			hub.fromClient(light.sid, call('mine', 'get_memory'));
			expect(idsAtTab(t)).toHaveLength(TAB_IN_FLIGHT);
			reply(hub, t.link, 's0', { jsonrpc: '2.0', id: 1, result: {} });
			expect(idsAtTab(t).at(-1)).toBe(`${last}:1`);
			reply(hub, t.link, 's0', { jsonrpc: '2.0', id: 2, result: {} });
			expect(idsAtTab(t).at(-1)).toBe('light:mine');
		});

		it('drops a cancelled request that is still waiting (never sent), and frees the place of one the tab has', () => {
			const { hub, greedy, out, t } = paired();
			const k = TAB_IN_FLIGHT_PER_SESSION;
			for (let i = 1; i <= k + 2; i++) hub.fromClient(greedy.sid, call(i));
			hub.fromClient(greedy.sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: k + 1, reason: 'timeout' } });
			expect(idsAtTab(t)).toHaveLength(k);
			// The tab's server sends no answer to a cancelled request: the relay frees its place itself.
			hub.fromClient(greedy.sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timeout' } });
			expect(t.msgs().at(-2)).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timeout' } });
			expect(idsAtTab(t).at(-1)).toBe(`${greedy.sid}:${k + 2}`);
			expect(idsAtTab(t)).not.toContain(`${greedy.sid}:${k + 1}`);
			expect(out).toEqual([]);
			expect(greedy.pending.size).toBe(k);
		});

		it('answers a batch once its other members are, when one of them was cancelled before its turn', () => {
			const { hub, greedy, out, t } = paired();
			const k = TAB_IN_FLIGHT_PER_SESSION;
			hub.fromClient(
				greedy.sid,
				Array.from({ length: k + 1 }, (_, i) => call(i + 1)),
			);
			hub.fromClient(greedy.sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: k + 1 } });
			for (let i = 1; i <= k; i++) reply(hub, t.link, greedy.sid, { jsonrpc: '2.0', id: i, result: {} });
			expect(out).toEqual([Array.from({ length: k }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, result: {} }))]);
			expect(idsAtTab(t)).not.toContain(`${greedy.sid}:${k + 1}`);
		});

		it('says a call at the tab may have been applied, and one still waiting on the relay that nothing was done', () => {
			const { hub, greedy, out, t } = paired();
			const k = TAB_IN_FLIGHT_PER_SESSION;
			for (let i = 1; i <= k + 1; i++) hub.fromClient(greedy.sid, call(i));
			hub.detachTab(t.link);
			const texts = (out as unknown as { id: number; error: { message: string } }[]).map((m) => [m.id, m.error.message]);
			expect(texts).toHaveLength(k + 1);
			expect(texts.slice(0, k).every(([, text]) => (text as string).includes('unknown whether it was applied'))).toBe(true);
			expect(texts[k]).toEqual([
				k + 1,
				'The Engram tab went away (reloaded or closed) before this request was sent to it (it was waiting its turn behind other requests); nothing was done, so resend it.',
			]);
			expect(greedy.pending.size).toBe(0);
		});

		it('frees the places of a session that closes', () => {
			const { hub, t, light } = paired();
			const sids = Array.from({ length: TAB_IN_FLIGHT / TAB_IN_FLIGHT_PER_SESSION }, (_, i) => `s${i}`);
			for (const sid of sids) hub.openSession('http', 'native', { deliver: () => {} }, sid);
			for (const sid of sids) for (let i = 1; i <= 10; i++) hub.fromClient(sid, call(i));
			hub.fromClient(light.sid, call('mine', 'get_memory'));
			expect(idsAtTab(t)).not.toContain('light:mine');
			hub.closeSession('s0');
			expect(idsAtTab(t)).toContain('light:mine');
		});
	});
});
