/**
 * The native tools through a real SDK Client over a real Engine (fake-indexeddb, embedded
 * model): what each returns in structuredContent and text, their error paths, and the output
 * bounds (no call returns megabytes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
	AssociateOutput,
	DeleteOutput,
	ExportOutput,
	GetOutput,
	ImportOutput,
	RecallOutput,
	StatsOutput,
	StoreOutput,
	TimelineOutput,
	UpdateOutput,
} from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { EXPORT_CAP } from '../../../src/mcp/tools/export-memories';
import { TEXT_CAP } from '../../../src/mcp/render';
import { seedCorpus, type CorpusKey } from './corpus';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
let c: Connection;
let ids: Record<CorpusKey, string>;

beforeAll(async () => {
	engine = await makeEngine();
	ids = await seedCorpus(engine);
	c = await connect(engine);
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

describe('native tools', () => {
	describe('store_memory', () => {
		it('stores one memory and answers with its id, seq and entities', async () => {
			const r = await c.call('store_memory', {
				content: 'Priya moved the nightly ETL job from cron to Airflow.',
				tags: ['data'],
				entities: [
					{ name: 'Airflow', type: 'tool' },
					{ name: 'Priya', type: 'person' },
				],
			});
			const out = data<StoreOutput>(r);
			expect(out).toMatchObject({ success: true, stored_count: 1, duplicate_count: 0 });
			expect(out.results[0]).toMatchObject({
				status: 'stored',
				entities: [
					{ name: 'Airflow', type: 'tool' },
					{ name: 'Priya', type: 'person' },
				],
			});
			expect(text(r)).toBe(`Stored #${out.seq} ${out.memory_id}.\nEntities: Airflow (tool), Priya (person)`);
		});

		it('returns the existing id for a near-duplicate and says how to keep both', async () => {
			const r = await c.call('store_memory', {
				content: 'Chose PostgreSQL over MongoDB for the billing service because invoices need ACID transactions.',
			});
			const out = data<StoreOutput>(r);
			expect(out.results[0]).toMatchObject({ status: 'duplicate', duplicate_of: ids.pgChoice });
			expect(text(r)).toMatch(new RegExp(`^Not stored again: near-duplicate of #1 ${ids.pgChoice} \\(similarity 1\\.00\\)\\. Use update_memory`));
		});

		it('stores a batch in one call and lists every result', async () => {
			const r = await c.call('store_memory', {
				memories: [
					{ content: 'The mobile app release train leaves every two weeks.' },
					{ content: 'Android builds are signed on the CI runner, never on laptops.' },
				],
			});
			const out = data<StoreOutput>(r);
			expect(out.stored_count).toBe(2);
			expect(text(r)).toMatch(/^Stored 2 of 2 \(0 near-duplicates kept as existing\)\.\n\[0\] #\d+ \S+\n\[1\] #\d+ \S+$/);
		});

		it('supersedes an outdated memory: the old one gets t_invalid and an EVOLVED_INTO link', async () => {
			const r = data<StoreOutput>(
				await c.call('store_memory', {
					content: 'Deploys to production now happen every weekday at 10:00 after the automated checks pass.',
					supersedes_memory_id: ids.deploys,
					supersede_relation: 'EVOLVED_INTO',
				}),
			);
			const old = data<GetOutput>(await c.call('get_memory', { memory_id: ids.deploys, track_access: false }));
			expect(old.memory.t_invalid).toBeDefined();
			expect(old.associations).toContainEqual(expect.objectContaining({ from: ids.deploys, to: r.memory_id, type: 'EVOLVED_INTO' }));
		});

		it('refuses top-level content together with memories[]', async () => {
			expect(errorText(await c.call('store_memory', { content: 'x', memories: [{ content: 'y' }] }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool store_memory: cannot be combined with top-level content at memories',
			);
		});
	});

	describe('recall_memory', () => {
		it('ranks the billing database decision first and explains the score', async () => {
			const r = await c.call('recall_memory', {
				query: 'Which database did we choose for billing, and why?',
				limit: 3,
			});
			const out = data<RecallOutput>(r);
			expect(out.results[0].memory.id).toBe(ids.pgChoice);
			expect(Object.keys(out.results[0].components).sort()).toEqual([
				'access',
				'confidence',
				'graph',
				'importance',
				'lexical',
				'neighbor',
				'recency',
				'semantic',
				'tags',
			]);
			expect(text(r).split('\n')[0]).toMatch(/^3 of \d+ memories:$/);
			expect(text(r)).toContain(ids.pgChoice);
		});

		it('filters by tags and pages with has_more / next_offset', async () => {
			const first = data<RecallOutput>(await c.call('recall_memory', { query: 'billing', tags: ['billing'], limit: 2 }));
			expect(first.results.every((x) => x.memory.tags.includes('billing'))).toBe(true);
			expect(first).toMatchObject({ has_more: true, next_offset: 2 });
			const second = data<RecallOutput>(await c.call('recall_memory', { query: 'billing', tags: ['billing'], limit: 2, offset: 2 }));
			expect(second.results.map((x) => x.memory.id)).not.toContain(first.results[0].memory.id);
		});

		it('says so when nothing matches', async () => {
			const r = await c.call('recall_memory', { query: 'zzzqx vvvbn', tags: ['no-such-tag'] });
			expect(text(r)).toMatch(/^No memories matched\./);
		});
	});

	describe('get_memory', () => {
		it('returns the full record by id with age, entities, related memories, and counts an access', async () => {
			const before = data<GetOutput>(await c.call('get_memory', { memory_id: ids.pgChoice }));
			const after = data<GetOutput>(await c.call('get_memory', { memory_id: ids.pgChoice }));
			expect(before.memory.id).toBe(ids.pgChoice);
			expect(after.memory.access_count).toBe(before.memory.access_count + 1);
			expect(before.memory.entities.map((e) => e.name)).toEqual(['PostgreSQL', 'MongoDB', 'billing-service']);
			expect(before.memory.embedding_tables).toEqual(['engram/glove-sif-100d']);
			expect(before.age).toMatch(/ago$/);
			const t = text(await c.call('get_memory', { memory_id: ids.pgChoice, track_access: false }));
			expect(t).toContain('Chose PostgreSQL over MongoDB for the billing service because invoices need ACID transactions.');
			expect(t.split('\n')[0]).toMatch(/^#1 \S+ \[Decision\] scope default, created .* ago \(2025-01-10T09:00:00\.000Z\)$/);
		});
	});

	describe('update_memory', () => {
		it('replaces tags, merges metadata and reports what changed', async () => {
			const r = await c.call('update_memory', {
				memory_id: ids.grafana,
				tags: ['billing', 'ops', 'dashboards'],
				metadata: { folder: 'ops/billing' },
			});
			expect(data<UpdateOutput>(r)).toMatchObject({
				success: true,
				memory_id: ids.grafana,
				re_embedded: false,
			});
			expect(data<UpdateOutput>(r).changed).toEqual(expect.arrayContaining(['tags', 'metadata']));
			expect(text(r)).toMatch(/^Updated #11 \S+: .*tags.*\.$/);
			const m = data<GetOutput>(await c.call('get_memory', { memory_id: ids.grafana, track_access: false })).memory;
			expect(m).toMatchObject({
				tags: ['billing', 'ops', 'dashboards'],
				metadata: { folder: 'ops/billing' },
			});
		});

		it('re-embeds when the content changes', async () => {
			const r = data<UpdateOutput>(
				await c.call('update_memory', {
					memory_id: ids.coffee,
					content: 'The coffee machine on the third floor was repaired on Monday.',
				}),
			);
			expect(r.re_embedded).toBe(true);
		});

		it('reports an unknown id as not_found', async () => {
			expect(errorText(await c.call('update_memory', { memory_id: 'gone', importance: 0.5 }))).toBe('not_found: memory_id: no memory with id "gone"');
		});

		it('tags_add / tags_remove edit the tags the memory has now, and answer the tags left', async () => {
			const tool = (await c.client.listTools()).tools.find((t) => t.name === 'update_memory')!;
			const props = tool.inputSchema.properties as Record<string, { description?: string }>;
			expect(props.tags_add!.description).toMatch(/add/);
			expect(props.tags_remove!.description).toMatch(/case-insensitive/);
			const before = data<GetOutput>(await c.call('get_memory', { memory_id: ids.kafka, track_access: false })).memory.tags;
			const [a, b] = await Promise.all([
				c.call('update_memory', { memory_id: ids.kafka, tags_add: ['reviewed'] }),
				c.call('update_memory', { memory_id: ids.kafka, tags_add: ['Streaming'], tags_remove: [before[0]!.toUpperCase()] }),
			]);
			expect(data<UpdateOutput>(a).changed).toEqual(['tags']);
			expect(data<UpdateOutput>(b).changed).toEqual(['tags']);
			const after = data<GetOutput>(await c.call('get_memory', { memory_id: ids.kafka, track_access: false })).memory.tags;
			expect([...after].sort()).toEqual([...before.slice(1), 'reviewed', 'Streaming'].sort());
			// The edit that ran second answers the tags both left.
			expect([data<UpdateOutput>(a).tags, data<UpdateOutput>(b).tags]).toContainEqual(after);
			// The text an agent reads names them too.
			expect(text(a)).toMatch(/Tags now: .*reviewed/);
			expect(errorText(await c.call('update_memory', { memory_id: ids.kafka, tags: ['x'], tags_add: ['y'] }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool update_memory: cannot be combined with tags (tags replaces the whole list) at tags_add',
			);
		});
	});

	describe('associate_memories', () => {
		it('creates a link, then updates it when called again (idempotent)', async () => {
			const args = {
				memory1_id: ids.timeout,
				memory2_id: ids.indexes,
				type: 'LEADS_TO',
				strength: 0.9,
			};
			const first = data<AssociateOutput>(await c.call('associate_memories', args));
			const again = data<AssociateOutput>(await c.call('associate_memories', { ...args, strength: 0.95 }));
			expect(first).toMatchObject({ success: true, created_count: 1, updated_count: 0 });
			expect(again).toMatchObject({ success: true, created_count: 0, updated_count: 1 });
			expect(again.succeeded[0]).toMatchObject({ strength: 0.95, status: 'updated' });
		});

		it('reports a partial batch: success false, and which item failed and why', async () => {
			const r = await c.call('associate_memories', {
				associations: [
					{ memory1_id: ids.kafka, memory2_id: ids.pgChoice, type: 'DERIVED_FROM', strength: 0.7 },
					{ memory1_id: ids.kafka, memory2_id: 'missing', type: 'RELATES_TO', strength: 0.5 },
				],
			});
			const out = data<AssociateOutput>(r);
			expect(out).toMatchObject({ success: false, created_count: 1, failed_count: 1 });
			expect(out.failed[0]).toMatchObject({ index: 1, code: 'not_found' });
			expect(text(r)).toContain('Failed:\n  [1] not_found:');
		});

		it('refuses system link types, which Engram creates itself', async () => {
			expect(
				errorText(
					await c.call('associate_memories', {
						memory1_id: ids.kafka,
						memory2_id: ids.pgChoice,
						type: 'SIMILAR_TO',
					}),
				),
			).toMatch(
				/^MCP error -32602: Input validation error: Invalid arguments for tool associate_memories: Invalid option: expected one of "RELATES_TO"\|.* at type$/,
			);
		});
	});

	describe('browsing', () => {
		it('lists the timeline in a window, oldest first', async () => {
			const out = data<TimelineOutput>(
				await c.call('list_memory_timeline', {
					start: '2025-03-01T00:00:00Z',
					end: '2025-04-01T00:00:00Z',
					order: 'asc',
				}),
			);
			expect(out.memories.map((m) => m.id)).toEqual([ids.timeout, ids.indexes]);
			expect(out).toMatchObject({ total: 2, has_more: false });
		});

		it('finds the memories of an entity, with the entity record', async () => {
			const r = await c.call('find_memories_by_entity', { entity: 'Kafka' });
			expect(data<{ entity: { id: string; memory_count: number }; memories: { id: string }[] }>(r)).toMatchObject({
				entity: { id: 'tool:kafka', memory_count: 1 },
				memories: [{ id: ids.kafka }],
			});
			expect(text(r).split('\n')[0]).toMatch(/^Kafka \(tool, id tool:kafka\): 1 memory,/);
		});

		it('counts the store', async () => {
			const out = data<StatsOutput>(await c.call('memory_stats', {}));
			expect(out.total_memories).toBeGreaterThanOrEqual(20);
			expect(out.by_type.Decision).toBe(3);
			// PostgreSQL and billing-service are tied hubs (8 memories each); ties break by entity id.
			expect(out.top_entities.slice(0, 2).map((e) => [e.name, e.count])).toEqual([
				['billing-service', 8],
				['PostgreSQL', 8],
			]);
		});

		it('ranks trending labels by count decayed by days since last seen', async () => {
			const r = await c.call('trending_labels', { days: 3650, limit: 3 });
			const out = data<{ labels: { label: string; count: number; score: number }[] }>(r);
			// "data" was used once today; "billing" nine times, but last on 2026-01-15.
			expect(out.labels[0]).toMatchObject({ label: 'data', count: 1, score: 1 });
			expect(out.labels).toHaveLength(3);
			expect(out.labels.map((l) => l.score)).toEqual([...out.labels.map((l) => l.score)].sort((a, b) => b - a));
		});

		it('checks health', async () => {
			expect(text(await c.call('check_database_health', {}))).toMatch(/^Status: healthy\nDatabase \S+ v\d+: \d+ memories/);
		});
	});

	describe('delete_memory', () => {
		it('deletes by id and removes the links', async () => {
			const r = data<DeleteOutput>(await c.call('delete_memory', { memory_id: ids.coffee }));
			expect(r).toMatchObject({ success: true, deleted_count: 1, deleted_ids: [ids.coffee] });
			expect(errorText(await c.call('get_memory', { memory_id: ids.coffee }))).toBe(`not_found: memory_id: no memory with id "${ids.coffee}"`);
		});

		it('deletes by tags', async () => {
			const r = await c.call('delete_memory', { tags: ['process'] });
			expect(data<DeleteOutput>(r).deleted_count).toBeGreaterThanOrEqual(1);
			expect(text(r)).toMatch(/^Deleted \d+ memor(y|ies) \(/);
		});

		it('refuses more than one selector', async () => {
			expect(errorText(await c.call('delete_memory', { memory_id: ids.tabs, tags: ['code-style'] }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool delete_memory: give exactly one of memory_id, memory_ids or tags at memory_id',
			);
		});
	});
});

describe('output bounds', () => {
	let big: Engine;
	let bc: Connection;
	beforeAll(async () => {
		big = await makeEngine();
		const para = (i: number) => `Section ${i}. ` + 'The incident review covered timelines, owners, alerts and follow-up actions in detail. '.repeat(540);
		await big.store({
			memories: Array.from({ length: 30 }, (_, i) => ({
				content: para(i).slice(0, 49_000),
				tags: ['review'],
				force: true,
			})),
		});
		bc = await connect(big);
	});
	afterAll(async () => {
		await bc.close();
		await big.close();
	});

	it('recall of 30 × 49k-character memories stays near 1 MB, contents cut and flagged', async () => {
		const r = await bc.call('recall_memory', {
			query: 'incident review follow-up actions',
			limit: 200,
			max_content_chars: 50_000,
		});
		const out = data<RecallOutput>(r);
		expect(JSON.stringify(out).length).toBeLessThan(1_100_000);
		expect(out.results.length).toBe(30);
		expect(out.results.every((x) => x.content_truncated === true && x.memory.content.length <= 6667)).toBe(true);
		expect(text(r).length).toBeLessThanOrEqual(TEXT_CAP);
	});

	it('export pages at ~1 MB per call and the pages add up to everything', async () => {
		let offset = 0;
		let total = 0;
		let pages = 0;
		for (;;) {
			const out = data<ExportOutput>(await bc.call('export_memories', { format: 'jsonl', offset }));
			expect(out.data.length).toBeLessThanOrEqual(EXPORT_CAP);
			total += out.memory_count;
			pages++;
			if (!out.has_more) break;
			offset = out.next_offset!;
		}
		expect(total).toBe(30);
		expect(pages).toBeGreaterThanOrEqual(2);
	});

	it('imports an export into another store', async () => {
		const exported = data<ExportOutput>(await c.call('export_memories', { format: 'json', tags: ['billing'] }));
		const fresh = await makeEngine();
		const fc = await connect(fresh);
		const r = await fc.call('import_memories', { data: exported.data });
		const out = data<ImportOutput>(r);
		expect(out).toMatchObject({ success: true, imported: exported.memory_count, errors: [] });
		expect(data<GetOutput>(await fc.call('get_memory', { memory_id: ids.pgChoice })).memory.content).toMatch(/^Chose PostgreSQL/);
		await fc.close();
		await fresh.close();
	});
});
