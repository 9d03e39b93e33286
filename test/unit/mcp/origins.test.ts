/** The postMessage origin policy over the real engine's settings. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { APPROVED_ORIGINS_KEY, OriginPolicy, normaliseOrigin } from '../../../src/mcp/origins';
import { makeEngine } from '../engine/helpers';

const SELF = 'http://127.0.0.1:4173';
const engines: Engine[] = [];
afterEach(async () => {
	for (const e of engines.splice(0)) await e.close();
});
async function engine(): Promise<Engine> {
	const e = await makeEngine();
	engines.push(e);
	return e;
}

describe('OriginPolicy', () => {
	it('allows the page’s own origin and nothing else by default', async () => {
		const p = await OriginPolicy.load(await engine(), SELF);
		expect(p.isAllowed(SELF)).toBe(true);
		expect(p.isAllowed('http://localhost:4173')).toBe(false);
		expect(p.isAllowed('null')).toBe(false);
		expect(p.approved()).toEqual([]);
	});

	it('turns attempts by unapproved origins into pending requests, counting repeats', async () => {
		const p = await OriginPolicy.load(await engine(), SELF);
		let changes = 0;
		p.subscribe(() => void changes++);
		p.note('http://localhost:5173', 'parent');
		p.note('http://localhost:5173', 'parent');
		p.note(SELF, 'same-window');
		p.note('null', 'window');
		expect(p.pending()).toEqual([
			{
				origin: 'http://localhost:5173',
				via: 'parent',
				first_seen: expect.any(String),
				last_seen: expect.any(String),
				attempts: 2,
			},
		]);
		expect(changes).toBe(1);
	});

	it('stores an approval, with an optional profile, and survives a reload', async () => {
		const e = await engine();
		const p = await OriginPolicy.load(e, SELF);
		p.note('http://localhost:5173', 'window');
		await p.approve('http://LOCALHOST:5173/', { profile: 'memory-mcp' });
		expect(p.isAllowed('http://localhost:5173')).toBe(true);
		expect(p.pending()).toEqual([]);
		expect(p.profileFor('http://localhost:5173')).toBe('memory-mcp');
		expect(await e.getSetting(APPROVED_ORIGINS_KEY)).toEqual([{ origin: 'http://localhost:5173', approved_at: expect.any(String), profile: 'memory-mcp' }]);
		const again = await OriginPolicy.load(e, SELF);
		expect(again.isAllowed('http://localhost:5173')).toBe(true);
	});

	it('revokes: the origin is refused at once, and its next attempt is pending again', async () => {
		const e = await engine();
		const p = await OriginPolicy.load(e, SELF);
		await p.approve('http://localhost:5173');
		await p.revoke('http://localhost:5173');
		expect(p.isAllowed('http://localhost:5173')).toBe(false);
		expect(await e.getSetting(APPROVED_ORIGINS_KEY)).toEqual([]);
		p.note('http://localhost:5173', 'parent');
		expect(p.pending().map((r) => r.origin)).toEqual(['http://localhost:5173']);
	});

	it('forgets a dismissed request and ignores that origin until the page reloads', async () => {
		const p = await OriginPolicy.load(await engine(), SELF);
		p.note('https://ads.example', 'parent');
		p.deny('https://ads.example');
		p.note('https://ads.example', 'parent');
		expect(p.pending()).toEqual([]);
		expect(p.isAllowed('https://ads.example')).toBe(false);
	});

	it('skips malformed stored entries instead of failing', async () => {
		const e = await engine();
		await e.setSetting(APPROVED_ORIGINS_KEY, [{ origin: 'https://ok.example', approved_at: '2026-01-01T00:00:00.000Z' }, { nope: true }, 'x']);
		const p = await OriginPolicy.load(e, SELF);
		expect(p.approved().map((a) => a.origin)).toEqual(['https://ok.example']);
	});

	it('keeps at most 20 pending origins', async () => {
		const p = await OriginPolicy.load(await engine(), SELF);
		for (let i = 0; i < 30; i++) p.note(`https://site${i}.example`, 'window');
		expect(p.pending()).toHaveLength(20);
	});
});

describe('OriginPolicy across tabs', () => {
	const channels: BroadcastChannel[] = [];
	afterEach(() => {
		for (const c of channels.splice(0)) c.close();
	});
	/** A channel of the app's kind, with a name of its own so parallel test files stay apart. */
	function channel(name: string): BroadcastChannel {
		const c = new BroadcastChannel(name);
		channels.push(c);
		return c;
	}

	it('revoking in one tab refuses the origin in every tab', async () => {
		const e = await engine();
		const name = `origins-${Math.random()}`;
		const a = await OriginPolicy.load(e, SELF, { channel: channel(name) as never });
		const b = await OriginPolicy.load(e, SELF, { channel: channel(name) as never });
		let changes = 0;
		b.subscribe(() => void changes++);
		await a.approve('http://localhost:5173');
		await vi.waitFor(() => expect(b.isAllowed('http://localhost:5173')).toBe(true));
		await a.revoke('http://localhost:5173');
		await vi.waitFor(() => expect(b.isAllowed('http://localhost:5173')).toBe(false));
		expect(changes).toBeGreaterThanOrEqual(2);
	});
});

describe('OriginPolicy.profileFor', () => {
	it('is the approved profile, native for approvals stored without one, nothing when not approved', async () => {
		const e = await engine();
		await e.setSetting(APPROVED_ORIGINS_KEY, [
			{ origin: 'http://a.example', approved_at: '2025-01-01T00:00:00.000Z', profile: 'aiakiv' },
			{ origin: 'http://b.example', approved_at: '2025-01-01T00:00:00.000Z' },
		]);
		const p = await OriginPolicy.load(e, SELF, { channel: null });
		expect(p.profileFor('http://a.example')).toBe('aiakiv');
		expect(p.profileFor('http://b.example')).toBe('native');
		expect(p.profileFor('http://c.example')).toBeUndefined();
	});
});

describe('normaliseOrigin', () => {
	it('lower-cases and drops a trailing slash', () => {
		expect(normaliseOrigin('HTTPS://Example.COM/')).toBe('https://example.com');
		expect(normaliseOrigin('chrome-extension://abcdefghijklmnop')).toBe('chrome-extension://abcdefghijklmnop');
	});

	it('refuses what does not name exactly one site', () => {
		expect(() => normaliseOrigin('null')).toThrow('origin "null" cannot be approved: it must name one site');
		expect(() => normaliseOrigin('https://*.example')).toThrow('origin "https://*.example" cannot be approved: it must name one site');
		expect(() => normaliseOrigin('https://example.com/path')).toThrow('origin "https://example.com/path" must be scheme://host[:port], no path');
		expect(() => normaliseOrigin('example.com')).toThrow(expect.objectContaining({ code: 'invalid_input' }));
	});
});
