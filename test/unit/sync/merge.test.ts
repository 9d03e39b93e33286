/**
 * The three-way merge sync applies to a memory changed on two devices while apart: changes to
 * different fields both stay; tags and links merge element by element (additions stay, removals
 * stay removed); metadata key by key; a field both changed keeps the later value and names the
 * conflict; and the result does not depend on which version a device holds (symmetry), so
 * devices converge.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SyncRecord } from '../../../src/engine/types';
import { markChanges } from '../../../src/sync/marks';
import { losingView, mergeRecords, mergeWithoutBase } from '../../../src/sync/merge';
import { fingerprint } from '../../../src/sync/records';

const T0 = '2026-12-01T10:00:00.000Z';
const TA = '2026-12-01T11:00:00.000Z';
const TB = '2026-12-01T12:00:00.000Z';

const link = (to: string, type = 'RELATES_TO', strength = 0.5) => ({ to, type, strength, created_at: T0 });

const base: SyncRecord = {
	id: 'm1',
	content: 'The build server is jenkins-01',
	type: 'Context',
	tags: ['ops', 'ci'],
	scope: 'default',
	importance: 0.5,
	confidence: 0.9,
	metadata: { owner: 'alice', room: 4 },
	timestamp: T0,
	updated_at: T0,
	links: [link('m2')],
	device: 'dev-0',
};
const onA = (o: Partial<SyncRecord>): SyncRecord => ({ ...base, ...o, updated_at: TA, device: 'dev-a' });
const onB = (o: Partial<SyncRecord>): SyncRecord => ({ ...base, ...o, updated_at: TB, device: 'dev-b' });

describe('three-way merge of a memory changed on two devices', () => {
	it('an edit to content on A and a tag edit on B both stay, with no conflict', () => {
		const m = mergeRecords(base, onA({ content: 'The build server is buildkite' }), onB({ tags: ['ops', 'ci', 'infra'] }));
		expect(m.record.content).toBe('The build server is buildkite');
		expect(m.record.tags).toEqual(['ops', 'ci', 'infra']);
		expect(m.conflicts).toEqual([]);
	});

	it('tags added on A and a link added on B both stay', () => {
		const m = mergeRecords(base, onA({ tags: ['ops', 'ci', 'urgent'] }), onB({ links: [link('m2'), link('m3', 'LEADS_TO')] }));
		expect(m.record.tags).toEqual(['ops', 'ci', 'urgent']);
		expect(m.record.links).toEqual([link('m2'), link('m3', 'LEADS_TO')]);
		expect(m.conflicts).toEqual([]);
	});

	it('a tag removed on one device stays removed while the other adds one; a link removed on one stays removed', () => {
		const m = mergeRecords(base, onA({ tags: ['ops'], links: [] }), onB({ tags: ['ops', 'ci', 'new'] }));
		expect(m.record.tags).toEqual(['ops', 'new']);
		expect(m.record.links).toEqual([]);
		// Removed on both: gone; added on both: once.
		const n = mergeRecords(base, onA({ tags: ['x'] }), onB({ tags: ['x', 'y'] }));
		expect(n.record.tags).toEqual(['x', 'y']);
	});

	it('the same field changed on both keeps the later value, names the conflict, and History gets the other', () => {
		const a = onA({ content: 'The team lunch is on Thursdays' });
		const b = onB({ content: 'The team lunch is on Fridays', importance: 0.9 });
		const m = mergeRecords(base, a, b);
		expect(m.record.content).toBe('The team lunch is on Fridays');
		expect(m.record.importance).toBe(0.9);
		expect(m.conflicts).toEqual(['content']);
		const lost = losingView(m);
		expect(lost.content).toBe('The team lunch is on Thursdays');
		// Only the conflicting field differs between what was kept and what History keeps.
		expect({ ...lost, content: m.record.content, device: m.record.device }).toEqual(m.record);
	});

	it('importance changed on both: the later one; metadata merges key by key', () => {
		const m = mergeRecords(
			base,
			onA({ importance: 0.2, metadata: { owner: 'bob', room: 4, desk: 'A' } }),
			onB({ importance: 0.8, metadata: { owner: 'alice', floor: 2 } }),
		);
		expect(m.record.importance).toBe(0.8);
		// owner: A changed it; room: B removed it; desk from A; floor from B.
		expect(m.record.metadata).toEqual({ owner: 'bob', desk: 'A', floor: 2 });
		expect(m.conflicts).toEqual(['importance']);
	});

	it('a supersede on A (end of validity and its link) and a content edit on B both stay', () => {
		const m = mergeRecords(
			base,
			onA({ t_invalid: TA, links: [link('m2'), link('z2', 'INVALIDATED_BY', 1)] }),
			onB({ content: 'The build server is jenkins-01 in rack 4' }),
		);
		expect(m.record).toMatchObject({ content: 'The build server is jenkins-01 in rack 4', t_invalid: TA });
		expect(m.record.links.map((l) => l.to)).toEqual(['m2', 'z2']);
	});

	it('a link whose strength both changed keeps the later one; one only A changed keeps A’s', () => {
		const m = mergeRecords(base, onA({ links: [link('m2', 'RELATES_TO', 0.1)] }), onB({ links: [link('m2', 'RELATES_TO', 0.9)] }));
		expect(m.record.links).toEqual([link('m2', 'RELATES_TO', 0.9)]);
		expect(m.conflicts).toEqual(['links']);
		const n = mergeRecords(base, onA({ links: [link('m2', 'RELATES_TO', 0.1)] }), onB({ tags: [] }));
		expect(n.record.links).toEqual([link('m2', 'RELATES_TO', 0.1)]);
	});

	it('odd tags (emoji, right-to-left, "/", "%", "_design") merge like any other', () => {
		const odd = ['🔥', 'שלום', 'a/b', '100%', '_design/x', '__proto__'];
		const m = mergeRecords(base, onA({ tags: [...base.tags, ...odd.slice(0, 3)] }), onB({ tags: ['ops', ...odd.slice(3)] }));
		expect(m.record.tags).toEqual(['ops', ...odd.slice(3), ...odd.slice(0, 3)]);
	});

	it('is symmetric: both devices settle any pair to the same record (fast-check)', () => {
		const tag = fc.constantFrom('ops', 'ci', 'x', 'y', '🔥');
		const side = fc.record({
			content: fc.constantFrom(base.content, 'c1', 'c2'),
			tags: fc.uniqueArray(tag, { maxLength: 4 }),
			importance: fc.constantFrom(0.5, 0.1, 0.9),
			links: fc.uniqueArray(fc.constantFrom('m2', 'm3', 'm4'), { maxLength: 3 }).map((ts) => ts.map((t) => link(t))),
			meta: fc.constantFrom({}, { owner: 'bob' }, { owner: 'alice', room: 4 }),
			at: fc.constantFrom(TA, TB),
			device: fc.constantFrom('dev-a', 'dev-b'),
		});
		fc.assert(
			fc.property(side, side, (x, y) => {
				const mk = (s: typeof x): SyncRecord => ({
					...base,
					content: s.content,
					tags: s.tags,
					importance: s.importance,
					links: s.links,
					metadata: s.meta,
					updated_at: s.at,
					device: s.device,
				});
				const [a, b] = [mk(x), mk(y)];
				const ab = mergeRecords(base, a, b).record;
				const ba = mergeRecords(base, b, a).record;
				expect(fingerprint(ab)).toBe(fingerprint(ba));
				// A side that changed nothing yields the other side's values.
				expect(fingerprint({ ...mergeRecords(base, base, a).record, updated_at: a.updated_at })).toBe(fingerprint({ ...a }));
			}),
		);
	});
});

describe('a merge without a base, with removal marks', () => {
	const CA = Date.parse(TA),
		CB = Date.parse(TB);
	// A synced `base`, then removed the tag "ci", the link to m2 and the metadata key "room"; its
	// device marked them removed when it sent that version. B still has them (it never saw A's edit).
	const removedOnA = markChanges(base, onA({ tags: ['ops'], links: [], metadata: { owner: 'alice' }, clock: CA }), CA);

	it('marks what a sent version lacks of the one before it', () => {
		expect(removedOnA.removed).toEqual({ 'tag:ci': CA, [`link:m2\u0000RELATES_TO`]: CA, 'meta:room': CA });
		expect(removedOnA.added).toBeUndefined();
		expect(fingerprint(removedOnA)).toBe(fingerprint(onA({ tags: ['ops'], links: [], metadata: { owner: 'alice' } })));
	});

	it('a tag, link or metadata key removed on one device stays removed, from either side, and the marks travel on', () => {
		const stale = onB({ content: 'The build server is jenkins-02', tags: ['ops', 'ci', 'new'], clock: CB });
		for (const m of [mergeWithoutBase(removedOnA, stale), mergeWithoutBase(stale, removedOnA)]) {
			expect(m.record.tags.sort()).toEqual(['new', 'ops']);
			expect(m.record.links).toEqual([]);
			expect(m.record.metadata).toEqual({ owner: 'alice' });
			expect(m.record.removed).toEqual(removedOnA.removed);
			expect(m.record.content).toBe('The build server is jenkins-02');
		}
		expect(fingerprint(mergeWithoutBase(removedOnA, stale).record)).toBe(fingerprint(mergeWithoutBase(stale, removedOnA).record));
	});

	it('one added again after the removal (by a device that saw it) stays', () => {
		// B received A's version (with its marks), then added "ci" back.
		const readded = markChanges(removedOnA, onB({ tags: ['ops', 'ci'], links: [], metadata: { owner: 'alice' }, clock: CB }), CB);
		expect(readded.added).toEqual({ 'tag:ci': CB });
		expect(readded.removed).toEqual({ [`link:m2\u0000RELATES_TO`]: CA, 'meta:room': CA });
		// Merged without a base with A's version (which still has the mark): "ci" stays.
		expect(mergeWithoutBase(removedOnA, readded).record.tags.sort()).toEqual(['ci', 'ops']);
		expect(mergeWithoutBase(readded, removedOnA).record.tags.sort()).toEqual(['ci', 'ops']);
	});

	it('without marks (versions written before them) both sides’ elements stay, as before', () => {
		const plain = onA({ tags: ['ops'], links: [], metadata: { owner: 'alice' } });
		expect(mergeWithoutBase(plain, onB({})).record.tags.sort()).toEqual(['ci', 'ops']);
	});
});
