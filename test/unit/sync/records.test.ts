/**
 * Sync's checks on a server document before it is decrypted (another app's, a newer schema
 * version, too large), and the scope filter and its form field.
 */
import { describe, expect, it } from 'vitest';
import type { SyncRecord } from '../../../src/engine/types';
import { mergeWithoutBase } from '../../../src/sync/merge';
import {
	asRecord,
	checkDoc,
	clockOf,
	compareVersions,
	docIdOf,
	inScopes,
	learnLead,
	linkKey,
	MAX_DOC_CHARS,
	memoryIdOf,
	parseScopes,
	stampClock,
} from '../../../src/sync/records';
import { SyncMap } from '../../../src/sync/sync-map';

describe('sync documents', () => {
	it('accepts an Engram box of schema version 1', () => {
		expect(checkDoc({ _id: 'm1', _rev: '1-a', v: 1, iv: 'AAAA', ct: 'BBBB' })).toBeUndefined();
	});

	it('names what is wrong with a document it will not open', () => {
		expect(checkDoc({ _id: 'x', title: 'Shopping list' })).toMatch(/^not an Engram document/);
		expect(checkDoc({ _id: 'x', v: 1, iv: 3, ct: 'B' })).toMatch(/^not an Engram document/);
		expect(checkDoc({ _id: 'x', v: 2, iv: 'A', ct: 'B' })).toBe('unknown schema version 2 (written by a newer Engram? update this app)');
		expect(checkDoc({ _id: 'x', v: '1', iv: 'A', ct: 'B' })).toMatch(/^unknown schema version "1"/);
		expect(checkDoc({ _id: 'x', v: 1, iv: 'A', ct: 'B'.repeat(MAX_DOC_CHARS) })).toMatch(
			/^too large \(600 kB; the largest memory record is under 600 kB\)$/,
		);
		expect(checkDoc(null)).toBe('not a document');
	});
});

describe('sync scopes', () => {
	it('syncs every scope when none are chosen, else only those chosen', () => {
		expect(inScopes('private', undefined)).toBe(true);
		expect(inScopes('private', [])).toBe(true);
		expect(inScopes('team-x', ['team-x'])).toBe(true);
		expect(inScopes('private', ['team-x'])).toBe(false);
	});

	it('reads the form field: trimmed, no empties, no repeats', () => {
		expect(parseScopes('')).toEqual([]);
		expect(parseScopes(' team-x, ,work,team-x ')).toEqual(['team-x', 'work']);
	});

	it('tells links apart by target and type', () => {
		expect(linkKey({ to: 'b', type: 'RELATES_TO', strength: 0.5 })).toBe(linkKey({ to: 'b', type: 'RELATES_TO', strength: 0.9 }));
		expect(linkKey({ to: 'b', type: 'RELATES_TO' })).not.toBe(linkKey({ to: 'b', type: 'LEADS_TO' }));
	});
});

describe('a conflict without a base keeps a supersede', () => {
	const base: SyncRecord = {
		id: 'z',
		content: 'The build server is jenkins-01',
		type: 'Fact',
		tags: [],
		scope: 'default',
		importance: 0.5,
		confidence: 1,
		metadata: {},
		timestamp: '2026-01-01T00:00:00.000Z',
		updated_at: '2026-01-02T00:00:00.000Z',
		links: [{ to: 'w', type: 'RELATES_TO', strength: 0.5 }],
	};
	const superseded: SyncRecord = {
		...base,
		t_invalid: '2026-01-03T00:00:00.000Z',
		updated_at: '2026-01-03T00:00:00.000Z',
		links: [...base.links, { to: 'z2', type: 'INVALIDATED_BY', strength: 1 }],
	};
	const edited: SyncRecord = { ...base, content: 'The build server is jenkins-01 in rack 4', updated_at: '2026-01-04T00:00:00.000Z' };

	it('the winning edit takes the losing supersede: t_invalid and its INVALIDATED_BY link', () => {
		const m = mergeWithoutBase(edited, superseded);
		expect(m.record).toMatchObject({
			content: edited.content,
			t_invalid: '2026-01-03T00:00:00.000Z',
			links: [
				{ to: 'w', type: 'RELATES_TO', strength: 0.5 },
				{ to: 'z2', type: 'INVALIDATED_BY', strength: 1 },
			],
		});
		expect(m.conflicts).toEqual(['content']);
		expect(mergeWithoutBase(superseded, edited).record).toEqual(m.record);
	});
});

describe('document ids', () => {
	it('escapes the memory ids CouchDB reserves or the key document holds, one to one', () => {
		expect(docIdOf('01a2b3c4-0000-7000-8000-000000000000')).toBe('01a2b3c4-0000-7000-8000-000000000000');
		expect(docIdOf('_design/x')).toBe('~~_design/x');
		expect(docIdOf('_local/x')).toBe('~~_local/x');
		expect(docIdOf('_x')).toBe('~~_x');
		expect(docIdOf('engram-sync-salt')).toBe('~~engram-sync-salt');
		expect(docIdOf('~~already')).toBe('~~~~already');
		for (const id of ['a/b', '100%', '🔥', 'שלום', '~one', '~~two', '_design/x', 'engram-sync-salt', '_', '~~']) expect(memoryIdOf(docIdOf(id))).toBe(id);
		for (const id of ['a', '_x', '~~_x', 'engram-sync-salt']) expect(docIdOf(id).startsWith('_')).toBe(false);
	});
});

describe('sync’s clock', () => {
	const rec: SyncRecord = {
		id: 'c',
		content: 'The standup moved to 9:30',
		type: 'Fact',
		tags: [],
		scope: 'default',
		importance: 0.5,
		confidence: 1,
		metadata: {},
		timestamp: '2026-12-01T10:00:00.000Z',
		updated_at: '2026-12-01T10:00:00.000Z',
		links: [],
	};
	const DAY = 86_400_000;
	const now = Date.parse('2026-12-01T10:00:00.000Z');

	it('a record written before clocks counts its updated_at', () => {
		expect(clockOf(rec)).toBe(now);
		expect(clockOf({ ...rec, clock: now + 5 })).toBe(now + 5);
	});

	it('adopts the lead of a clock seen running ahead, never a lag', () => {
		expect(learnLead(0, { ...rec, clock: now + DAY }, now + 200)).toBe(DAY - 200);
		expect(learnLead(DAY, { ...rec, clock: now }, now)).toBe(DAY);
		expect(learnLead(0, { ...rec, updated_at: '2026-11-01T00:00:00.000Z' }, now)).toBe(0);
	});

	it('a device with a true clock that saw a clock a day ahead stamps its later edit later than that device’s earlier one', () => {
		// A's clock runs a day ahead. B (true clock) gets A's version of another memory at 10:00 and adopts A's lead.
		const lead = learnLead(0, { ...rec, updated_at: '2026-12-02T10:00:00.000Z', clock: now + DAY, device: 'dev-a' }, now);
		// Apart: A edits at 10:05 (its clock says the 2nd), B at 10:10.
		const onA = { ...rec, content: 'The standup moved to 9:45', updated_at: '2026-12-02T10:05:00.000Z', device: 'dev-a' };
		const mine = { ...rec, content: 'The standup moved to 10:00', updated_at: '2026-12-01T10:10:00.000Z' };
		const onB = { ...mine, device: 'dev-b', clock: stampClock(mine, lead, Date.parse(mine.updated_at)) };
		const onA2 = { ...onA, clock: stampClock(onA, 0, Date.parse(onA.updated_at)) };
		expect(compareVersions(onB, onA2)).toBe(1);
		expect(compareVersions(onB, onA)).toBe(1);
		expect(mergeWithoutBase(onA2, onB).record.content).toBe('The standup moved to 10:00');
	});

	it('a caller-set updated_at far ahead moves no lead: stamped no later than its device’s clock, and a record without a clock teaches nothing', () => {
		const future = { ...rec, updated_at: '2036-01-01T00:00:00.000Z' };
		// Stamped by its device at 10:00 with no lead: 10:00, not 2036.
		const stamped = { ...future, device: 'dev-a', clock: stampClock(future, 0, now) };
		expect(stamped.clock).toBe(now);
		// Another device with a true clock receives it a second later: no lead learnt.
		expect(learnLead(0, stamped, now + 1_000)).toBe(0);
		// The same date in a record written without a clock (an older Engram's) does not count either.
		expect(learnLead(0, future, now + 1_000)).toBe(0);
		// A truly later edit elsewhere wins a clash with it.
		const later = { ...rec, content: 'The standup moved to 9:45', updated_at: '2026-12-01T10:05:00.000Z', device: 'dev-b' };
		expect(compareVersions({ ...later, clock: stampClock(later, 0, now + 300_000) }, stamped)).toBe(1);
		// A past updated_at (an imported memory) keeps its own time.
		expect(stampClock({ ...rec, updated_at: '2026-11-01T00:00:00.000Z' }, 0, now)).toBe(Date.parse('2026-11-01T00:00:00.000Z'));
	});

	it('stamps a version of this device once: merged here, then sent after the lead grew, it keeps one clock', () => {
		const map = new SyncMap(
			() => undefined,
			async (fn) => fn(),
		);
		const mine = { ...rec, content: 'The standup moved to 10:00' };
		const merged = map.clockFor(mine);
		expect(merged).toBe(now);
		map.lead = DAY;
		expect(map.clockFor(mine)).toBe(merged);
		// An edit here (a new updated_at) is stamped anew, with the lead now.
		expect(map.clockFor({ ...mine, updated_at: '2026-12-01T10:05:00.000Z' })).toBe(now + 300_000 + DAY);
	});

	it('refuses a record whose clock is not a number, naming the field', () => {
		expect(asRecord('c', { ...rec, clock: 'soon' })).toBe('clock is not a finite number');
		expect(asRecord('c', { ...rec, clock: now })).toMatchObject({ clock: now });
	});
});
