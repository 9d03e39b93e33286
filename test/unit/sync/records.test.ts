/**
 * Sync's checks on a server document before it is decrypted (another app's, a newer schema
 * version, too large), and the scope filter and its form field.
 */
import { describe, expect, it } from 'vitest';
import type { SyncRecord } from '../../../src/engine/types';
import { checkDoc, docIdOf, inScopes, keepSupersede, linkKey, MAX_DOC_CHARS, memoryIdOf, parseScopes } from '../../../src/sync/records';

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

describe('a conflict keeps a supersede', () => {
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

	it('the winning edit takes the losing supersede: t_invalid and its INVALIDATED_BY link, nothing else of the loser', () => {
		expect(keepSupersede(edited, superseded)).toEqual({
			...edited,
			t_invalid: '2026-01-03T00:00:00.000Z',
			links: [
				{ to: 'w', type: 'RELATES_TO', strength: 0.5 },
				{ to: 'z2', type: 'INVALIDATED_BY', strength: 1 },
			],
		});
	});

	it('nothing to carry over: the loser is not superseded, or the winner is already', () => {
		expect(keepSupersede(superseded, edited)).toBeUndefined();
		expect(keepSupersede({ ...superseded, updated_at: '2026-01-05T00:00:00.000Z' }, superseded)).toBeUndefined();
		expect(keepSupersede(edited, base)).toBeUndefined();
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
