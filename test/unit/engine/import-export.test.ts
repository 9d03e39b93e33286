import { entityIdsOf } from '../../../src/store/derived';
import { describe, expect, it } from 'vitest';
import { vectorRowsOf } from '../../../src/store/vectors';
import type { Engine } from '../../../src/engine/engine';
import type { Progress } from '../../../src/engine/types';
import { Clock, countingEmbedder, embedder, rejection, storedLinks, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();
const fresh = (opts: Parameters<typeof engines>[0] = {}) => engines({ now: clock.now, ...opts });

/** A small but varied memory set: scopes, sessions, entities, supersede, links, accesses. */
async function seed(engine: Engine): Promise<string[]> {
	const out = await engine.store({
		memories: [
			{ content: 'The daily standup meeting starts at 9 am', tags: ['team'], metadata: { session_id: 's1' }, source: 'chat' },
			{ content: 'Our team meets for standup at nine every morning', tags: ['team', 'ritual'], importance: 'HIGH' },
			{ content: 'Maria Silva owns the billing service', entities: [{ name: 'Maria Silva', type: 'person' }], scope: 'billing' },
			{ content: 'Invoices go out on the 1st; see `billing/cron.ts`', summary: 'Invoice schedule', confidence: 0.6, t_valid: '2026-01-01T00:00:00Z' },
		],
	});
	const ids = out.results.map((r) => r.memory_id);
	const v2 = await engine.store({
		content: 'Standup moved to 9:30 am',
		supersedes_memory_id: ids[0],
		supersede_relation: 'EVOLVED_INTO',
		supersede_reason: 'new timezone',
	});
	await engine.associate({ memory1_id: ids[2], memory2_id: ids[3], type: 'PART_OF', role: 'owner', strength: 0.7 });
	await engine.get({ memory_id: ids[1] });
	await engine.get({ memory_id: ids[1] });
	return [...ids, v2.memory_id!];
}

/** Everything a lossless round trip must keep, read from the database in a stable order. */
async function snapshotOf(engine: Engine) {
	const memories = await engine.db.memories.orderBy('seq').toArray();
	const associations = await storedLinks(engine);
	const entities = await engine.db.entities.orderBy('id').toArray();
	const links = memories.map((m) => [m.id, entityIdsOf(m.entities)]);
	return { memories, associations, entities, links };
}

describe('Engine', () => {
	describe('export/import', () => {
		it('JSON round trip: export → wipe → import gives identical memories, associations and entities', async () => {
			const engine = await fresh();
			await seed(engine);
			const before = await snapshotOf(engine);
			const exported = await engine.exportMemories({ format: 'json' });
			expect(exported).toMatchObject({ format: 'json', memory_count: 5, has_more: false });
			await engine.wipe();
			expect((await engine.stats({})).total_memories).toBe(0);
			const res = await engine.importMemories({ data: exported.data });
			expect(res).toMatchObject({ success: true, imported: 5, skipped: 0, errors: [] });
			expect(await snapshotOf(engine)).toEqual(before);
		});

		it('JSONL round trip with vectors restores them bit for bit without embedding', async () => {
			const engine = await fresh();
			await seed(engine);
			const before = await snapshotOf(engine);
			const allVectors = async (e: typeof engine) =>
				(await e.db.memories.toArray()).flatMap(vectorRowsOf).sort((x, y) => x.memory_id.localeCompare(y.memory_id) || x.model.localeCompare(y.model));
			const vectorsBefore = await allVectors(engine);
			const exported = await engine.exportMemories({ format: 'jsonl', include_vectors: true });
			expect(exported.data.split('\n')[0]).toContain('"kind":"header"');
			const counting = countingEmbedder(await embedder());
			const target = await fresh({ embedder: counting });
			const res = await target.importMemories({ data: exported.data });
			expect(res.errors).toEqual([]);
			expect(await snapshotOf(target)).toEqual(before);
			expect(await allVectors(target)).toEqual(vectorsBefore);
			expect(vectorsBefore.length).toBeGreaterThan(0);
			expect(counting.texts).toBe(0);
		});

		it('re-embeds on import when the export has no vectors', async () => {
			const engine = await fresh();
			await seed(engine);
			const exported = await engine.exportMemories({ format: 'jsonl' });
			const counting = countingEmbedder(await embedder());
			const target = await fresh({ embedder: counting });
			await target.importMemories({ data: exported.data });
			expect(counting.texts).toBe(5);
			expect(counting.calls).toBe(1);
			await target.importMemories({ data: exported.data });
			expect(counting.texts).toBe(5);
			const r = await target.recall({ query: 'who owns billing', scope: 'billing' });
			expect(r.results[0].memory.content).toBe('Maria Silva owns the billing service');
		});

		it('skips existing ids by default and replaces them on request', async () => {
			const engine = await fresh();
			const [first] = await seed(engine);
			const exported = await engine.exportMemories({ format: 'json' });
			await engine.update({ memory_id: first, content: 'Changed locally after the export' });
			const skip = await engine.importMemories({ data: exported.data });
			expect(skip).toMatchObject({ imported: 0, skipped: 5 });
			expect((await engine.getMemories([first]))[0]!.content).toBe('Changed locally after the export');
			const replace = await engine.importMemories({ data: exported.data, on_conflict: 'replace' });
			expect(replace).toMatchObject({ imported: 0, replaced: 5 });
			expect((await engine.getMemories([first]))[0]!.content).toBe('The daily standup meeting starts at 9 am');
		});

		it('counts a re-imported link only where it says something new', async () => {
			const engine = await fresh();
			const ids = await seed(engine);
			const exported = await engine.exportMemories({ format: 'json' });
			const before = await storedLinks(engine);
			expect((await engine.importMemories({ data: exported.data })).associations).toBe(0);
			expect(await storedLinks(engine)).toEqual(before);
			const bundle = JSON.parse(exported.data) as { associations: { from: string; type: string; strength: number }[] };
			bundle.associations.find((a) => a.from === ids[2] && a.type === 'PART_OF')!.strength = 0.9;
			const changed = await engine.importMemories({ data: JSON.stringify(bundle) });
			expect(changed.associations).toBe(1);
			expect((await storedLinks(engine)).find((a) => a.from === ids[2] && a.type === 'PART_OF')).toMatchObject({ strength: 0.9, role: 'owner' });
		});

		it('gives an imported memory a new seq when its seq is taken by another memory', async () => {
			const source = await fresh();
			await source.store({ content: 'Exported memory number one' });
			const data = (await source.exportMemories({})).data;
			const target = await fresh();
			await target.store({ content: 'Local memory holding seq one' });
			await target.importMemories({ data });
			const seqs = (await target.db.memories.orderBy('seq').toArray()).map((m) => [m.content, m.seq]);
			expect(seqs).toEqual([
				['Local memory holding seq one', 1],
				['Exported memory number one', 2],
			]);
			expect((await target.store({ content: 'Next local memory' })).seq).toBe(3);
		});

		it('puts imported memories into the given scope', async () => {
			const engine = await fresh();
			await seed(engine);
			const data = (await engine.exportMemories({})).data;
			const target = await fresh();
			await target.importMemories({ data, scope: 'imported' });
			expect((await target.stats({})).by_scope).toEqual({ imported: 5 });
		});

		it('exports a page at a time with has_more and next_offset', async () => {
			const engine = await fresh();
			await seed(engine);
			const page = await engine.exportMemories({ limit: 2, offset: 1 });
			expect(page).toMatchObject({ memory_count: 2, has_more: true, next_offset: 3 });
			const doc = JSON.parse(page.data) as { memories: { seq: number }[] };
			expect(doc.memories.map((m) => m.seq)).toEqual([2, 3]);
		});

		it('exports only a scope, with no association pointing outside it', async () => {
			const engine = await fresh();
			await seed(engine);
			const doc = JSON.parse((await engine.exportMemories({ scope: 'billing' })).data) as { memories: unknown[]; associations: unknown[] };
			expect(doc.memories).toHaveLength(1);
			expect(doc.associations).toEqual([]);
		});

		it('Markdown export is readable: a heading per memory and its metadata list', async () => {
			const engine = await fresh();
			await seed(engine);
			const md = (await engine.exportMemories({ format: 'markdown' })).data;
			expect(md).toMatch(/^# Engram memories\n/);
			expect(md).toContain('## #3 · Maria Silva owns the billing service');
			expect(md).toContain('- **scope:** billing');
			expect(md).toContain('- **entities:** `Maria Silva` (person)');
			expect(md).toContain('## #4 · Invoice schedule');
			expect(md).toContain('````text\nInvoices go out on the 1st; see `billing/cron.ts`\n````'.replace(/````/g, '```'));
		});

		it('Markdown export imports back with ids, seqs, tags, metadata and links', async () => {
			const engine = await fresh();
			await seed(engine);
			const before = await engine.db.memories.orderBy('seq').toArray();
			const md = (await engine.exportMemories({ format: 'markdown' })).data;
			const target = await fresh();
			const res = await target.importMemories({ data: md });
			expect(res.errors).toEqual([]);
			const after = await target.db.memories.orderBy('seq').toArray();
			const keep = (m: (typeof before)[number]) => [
				m.id,
				m.seq,
				m.content,
				m.tags,
				m.scope,
				m.metadata,
				m.importance,
				m.confidence,
				m.timestamp,
				m.t_valid,
				m.t_invalid,
				m.access_count,
				m.summary,
				m.source,
			];
			expect(after.map(keep)).toEqual(before.map(keep));
			expect(res.associations).toBe((await storedLinks(engine)).length);
		});

		it('imports any Markdown file as one memory per paragraph, the headings above as tags', async () => {
			const engine = await fresh();
			const res = await engine.importMemories({ data: '# Notes\n\n## Deploys\nWe ship on Tuesdays.\n\n## People\nMaria runs design.\n' });
			expect(res.imported).toBe(2);
			const rows = (await engine.db.memories.orderBy('seq').toArray()).map((m) => [m.content, m.tags]);
			expect(rows).toEqual([
				['We ship on Tuesdays.', ['Notes', 'Deploys']],
				['Maria runs design.', ['Notes', 'People']],
			]);
		});

		it('reports bad lines with their line numbers and imports the rest', async () => {
			const engine = await fresh();
			const data = [
				'{"kind":"header","format":"engram","version":1}',
				'{"kind":"memory","id":"ok-1","content":"A good memory"}',
				'not json at all',
				'{"kind":"memory","id":"bad-date","content":"Bad date","timestamp":"someday"}',
				'{"kind":"memory","id":"ok-2","content":"Another good memory","importance":0.9}',
				'{"kind":"association","from":"ok-1","to":"ghost","type":"RELATES_TO","strength":0.5}',
				'{"kind":"widget"}',
			].join('\n');
			const res = await engine.importMemories({ data });
			expect(res.imported).toBe(2);
			expect(res.success).toBe(false);
			expect(res.errors).toEqual([
				{ line: 3, error: expect.stringMatching(/^not a JSON object/) },
				{ line: 4, error: 'memory.timestamp: must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09:30:00Z' },
				{ line: 6, error: 'association: to memory "ghost" does not exist' },
				{ line: 7, error: 'kind: must be one of header, memory, entity, association, vector (got "widget")' },
			]);
		});

		it('imports in batches of at most 500 and reports progress', async () => {
			const engine = await fresh();
			const data = Array.from({ length: 1100 }, (_, i) => JSON.stringify({ kind: 'memory', id: `m${i}`, content: `Imported fact number ${i}` })).join(
				'\n',
			);
			const progress: Progress[] = [];
			const res = await engine.importMemories({ data }, undefined, (p) => progress.push(p));
			expect(res.imported).toBe(1100);
			expect(progress.map((p) => p.done)).toEqual([500, 1000, 1100]);
			expect(progress.every((p) => p.task === 'import' && p.total === 1100)).toBe(true);
		});

		it('imports the server-memory knowledge graph: observations as memories, relations as RELATES_TO', async () => {
			const engine = await fresh();
			const data = [
				'{"type":"entity","name":"John_Smith","entityType":"person","observations":["Speaks fluent Spanish","Graduated in 2019"]}',
				'{"type":"entity","name":"Anthropic","entityType":"organization","observations":["Anthropic builds Claude"]}',
				'{"type":"relation","from":"John_Smith","to":"Anthropic","relationType":"works_at"}',
				'{"type":"relation","from":"John_Smith","to":"Nobody","relationType":"knows"}',
				'{"type":"entity","name":"Bad"}',
			].join('\n');
			const res = await engine.importMemories({ data });
			expect(res).toMatchObject({ imported: 3, entities: 2, associations: 1 });
			expect(res.errors).toEqual([
				{ line: 4, error: 'relation: no entity named "Nobody" in this file' },
				{ line: 5, error: 'entity.entityType: is required' },
			]);
			const john = await engine.findByEntity({ entity: 'John_Smith' });
			expect(john.memories.map((m) => m.content).sort()).toEqual(['John_Smith: Graduated in 2019', 'John_Smith: Speaks fluent Spanish']);
			expect(john.memories[0].tags).toEqual(['John_Smith']);
			const links = (await engine.associationsOf(john.memories.find((m) => m.content.includes('Spanish'))!.id)).filter((l) => l.type === 'RELATES_TO');
			expect(links).toEqual([expect.objectContaining({ context: 'works_at', strength: 0.8 })]);
			const again = await engine.importMemories({ data });
			expect(again).toMatchObject({ imported: 0, skipped: 3, associations: 0 });
		});

		it('keeps knowledge-graph observations and entities that differ only in case or punctuation apart, and re-imports them as skipped', async () => {
			const engine = await fresh();
			const data = [
				'{"type":"entity","name":"Apple","entityType":"organization","observations":["Is red"]}',
				'{"type":"entity","name":"apple","entityType":"fruit","observations":["Is red"]}',
				'{"type":"entity","name":"Bob","entityType":"person","observations":["Prefers C","Prefers C#","prefers c"]}',
				'{"type":"relation","from":"apple","to":"Bob","relationType":"eaten_by"}',
			].join('\n');
			const res = await engine.importMemories({ data });
			expect(res).toMatchObject({ imported: 5, refused: 0, associations: 1 });
			const contents = (await engine.db.memories.toArray()).map((m) => `${m.metadata.entity as string}: ${m.content}`).sort();
			expect(contents).toEqual(['Apple: Apple: Is red', 'Bob: Bob: Prefers C', 'Bob: Bob: Prefers C#', 'Bob: Bob: prefers c', 'apple: apple: Is red']);
			const fruit = (await engine.db.memories.toArray()).find((m) => m.metadata.entity === 'apple')!;
			expect((await engine.associationsOf(fruit.id)).filter((l) => l.type === 'RELATES_TO')).toEqual([expect.objectContaining({ context: 'eaten_by' })]);
			expect(await engine.importMemories({ data })).toMatchObject({ imported: 0, skipped: 5, associations: 0 });
		});

		it('pages an export by seq, so a memory deleted between two pages does not push another out of both', async () => {
			const engine = await fresh();
			const out = await engine.store({ memories: ['One', 'Two', 'Three', 'Four'].map((w) => ({ content: `Memory number ${w}`, force: true })) });
			const ids = out.results.map((r) => r.memory_id);
			const first = await engine.exportMemories({ format: 'jsonl', limit: 2 });
			expect(first).toMatchObject({ memory_count: 2, has_more: true, next_after_seq: 2 });
			await engine.delete({ memory_id: ids[0] });
			const second = await engine.exportMemories({ format: 'jsonl', limit: 2, after_seq: first.next_after_seq });
			const exported = (first.data + second.data)
				.split('\n')
				.flatMap((l) => (l.includes('"kind":"memory"') ? [(JSON.parse(l) as { id: string }).id] : []));
			expect(exported).toEqual(ids);
			expect(second).toMatchObject({ has_more: false });
		});

		it('refuses empty import data naming the field', async () => {
			const engine = await fresh();
			expect((await rejection(engine.importMemories({ data: '' }))).message).toBe('data: must not be empty');
		});
	});
});
