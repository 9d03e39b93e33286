/**
 * The automem profile through a real Client: every example call of seeds 000 and 001 returns
 * what the seeds document, plus AutoMem's store/recall/delete/health contracts (2000-character
 * limit, recall modes and formats, output shapes and messages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
let c: Connection;

beforeAll(async () => {
	engine = await makeEngine();
	c = await connect(engine, 'automem');
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

const SEED_001_ID = '8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91';

describe('automem profile', () => {
	describe('store_memory', () => {
		it('stores the description examples and answers in AutoMem shape', async () => {
			const r = await c.call('store_memory', {
				content: 'Chose PostgreSQL over MongoDB for user service. Need ACID for transactions.',
				tags: ['architecture', 'database'],
				importance: 0.9,
			});
			const out = data<{ memory_id: string; message: string }>(r);
			expect(Object.keys(out).sort()).toEqual(['memory_id', 'message']);
			expect(text(r)).toBe(`Memory stored successfully!\n\nMemory ID: ${out.memory_id}\nMessage: ${out.message}`);
			const m = (await engine.getMemories([out.memory_id]))[0]!;
			expect(m).toMatchObject({ tags: ['architecture', 'database'], importance: 0.9 });
		});

		it('keeps a caller-given id, as AutoMem allows', async () => {
			const out = data<{ memory_id: string }>(
				await c.call('store_memory', {
					id: 'feature-456',
					content: 'Feature 456 added CSV export of invoices to the billing dashboard.',
				}),
			);
			expect(out.memory_id).toBe('feature-456');
		});

		it('supersedes: the old memory is marked invalid and linked old → new', async () => {
			const old = data<{ memory_id: string }>(
				await c.call('store_memory', {
					content: 'User prefers MySQL for small local tools.',
					tags: ['preferences'],
				}),
			);
			const r = await c.call('store_memory', {
				content: 'User now prefers SQLite for small local tools.',
				supersedes_memory_id: old.memory_id,
				supersede_reason: 'Correction from user',
			});
			const out = data<{
				memory_id: string;
				superseded_memory_id: string;
				association_created: boolean;
			}>(r);
			expect(out).toMatchObject({ superseded_memory_id: old.memory_id, association_created: true });
			expect(text(r)).toContain(`Superseded memory ID: ${old.memory_id}\nAssociation created: yes`);
			const [was] = await engine.getMemories([old.memory_id]);
			expect(was!.t_invalid).toBeDefined();
			expect(await engine.associationsOf(old.memory_id)).toContainEqual(
				expect.objectContaining({ from: old.memory_id, to: out.memory_id, type: 'INVALIDATED_BY' }),
			);
		});

		it('stores a batch and lists the ids', async () => {
			const r = await c.call('store_memory', {
				memories: [
					{ content: 'Benchmarks run nightly on the dedicated runner.', tags: ['bench'] },
					{ content: 'Flaky tests are quarantined within a day.', tags: ['bench'] },
				],
			});
			const out = data<{ stored: number; memory_ids: string[]; message: string }>(r);
			expect(out.stored).toBe(2);
			expect(out.memory_ids).toHaveLength(2);
			expect(text(r)).toBe(`Stored 2 memories.\nIDs: ${out.memory_ids.join(', ')}\nMessage: ${out.message}`);
		});

		it('refuses content over 2000 characters, in single and batch mode', async () => {
			const long = 'x'.repeat(2001);
			const msg = "content exceeds AutoMem's hard limit of 2000 characters; split it into smaller, focused memories";
			expect(errorText(await c.call('store_memory', { content: long }))).toBe(
				`MCP error -32602: Input validation error: Invalid arguments for tool store_memory: ${msg} at content`,
			);
			expect(errorText(await c.call('store_memory', { memories: [{ content: long }] }))).toBe(
				`MCP error -32602: Input validation error: Invalid arguments for tool store_memory: ${msg} at memories[0].content`,
			);
		});

		it('does not accept Engram-only arguments under AutoMem names', async () => {
			const { tools } = await c.client.listTools();
			const props = Object.keys((tools.find((t) => t.name === 'store_memory')!.inputSchema as { properties: object }).properties);
			expect(props.sort()).toEqual(
				[
					'confidence',
					'content',
					'embedding',
					'id',
					'importance',
					'last_accessed',
					'memories',
					'metadata',
					'supersede_reason',
					'supersede_relation',
					'supersedes_memory_id',
					't_invalid',
					't_valid',
					'tags',
					'timestamp',
					'type',
					'updated_at',
				].sort(),
			);
		});
	});

	describe('associate_memories (seed 000)', () => {
		beforeAll(async () => {
			for (const [id, content] of [
				['bug-fix-123', 'Fixed the CSV export of invoices dropping rows with unicode customer names.'],
				['new-decision', 'Use managed PostgreSQL on the cloud provider instead of self-hosting.'],
				['old-decision', 'Self-host PostgreSQL on our own virtual machines.'],
				['a', 'Alerting thresholds for billing latency were tightened to 300 ms.'],
				['b', 'The billing latency dashboard gained a p99 panel.'],
			])
				data(await c.call('store_memory', { id, content }));
		});

		it('associate_memories({ memory1_id: "bug-fix-123", memory2_id: "feature-456", type: "RELATES_TO", strength: 0.9 })', async () => {
			const r = await c.call('associate_memories', {
				memory1_id: 'bug-fix-123',
				memory2_id: 'feature-456',
				type: 'RELATES_TO',
				strength: 0.9,
			});
			const out = data<{ success: boolean; message: string }>(r);
			expect(out.success).toBe(true);
			expect(text(r)).toBe(`Association created successfully!\n\nMessage: ${out.message}`);
			expect(await engine.associationsOf('bug-fix-123')).toContainEqual(
				expect.objectContaining({
					from: 'bug-fix-123',
					to: 'feature-456',
					type: 'RELATES_TO',
					strength: 0.9,
				}),
			);
		});

		it('associate_memories({ memory1_id: "new-decision", memory2_id: "old-decision", type: "EVOLVED_INTO", strength: 0.8 })', async () => {
			const out = data<{ success: boolean }>(
				await c.call('associate_memories', {
					memory1_id: 'new-decision',
					memory2_id: 'old-decision',
					type: 'EVOLVED_INTO',
					strength: 0.8,
				}),
			);
			expect(out.success).toBe(true);
			expect(await engine.associationsOf('old-decision')).toContainEqual(
				expect.objectContaining({
					from: 'new-decision',
					to: 'old-decision',
					type: 'EVOLVED_INTO',
					strength: 0.8,
				}),
			);
		});

		it('associate_memories({ associations: [{ memory1_id: "a", memory2_id: "b", type: "RELATES_TO", strength: 0.8 }] })', async () => {
			const r = await c.call('associate_memories', {
				associations: [{ memory1_id: 'a', memory2_id: 'b', type: 'RELATES_TO', strength: 0.8 }],
			});
			const out = data<{
				success: boolean;
				created_count: number;
				failed_count: number;
				succeeded: unknown[];
				failed: unknown[];
			}>(r);
			expect(out).toMatchObject({ success: true, created_count: 1, failed_count: 0, failed: [] });
			expect(out.succeeded).toHaveLength(1);
		});

		it('reports a partial batch as AutoMem does', async () => {
			const r = await c.call('associate_memories', {
				associations: [
					{ memory1_id: 'a', memory2_id: 'bug-fix-123', type: 'LEADS_TO', strength: 0.6 },
					{ memory1_id: 'a', memory2_id: 'nope', type: 'RELATES_TO', strength: 0.5 },
				],
			});
			const out = data<{ success: boolean; message: string }>(r);
			expect(out.success).toBe(false);
			expect(text(r)).toBe(`Association completed with failures.\n\nMessage: ${out.message}\n\nCreated: 1\nFailed: 1`);
		});

		it('refuses internal relation types and combined modes', async () => {
			expect(
				errorText(
					await c.call('associate_memories', {
						memory1_id: 'a',
						memory2_id: 'b',
						type: 'PRECEDED_BY',
					}),
				),
			).toMatch(/Invalid option: expected one of "RELATES_TO"\|.* at type$/);
			expect(
				errorText(
					await c.call('associate_memories', {
						memory1_id: 'a',
						associations: [{ memory1_id: 'a', memory2_id: 'b' }],
					}),
				),
			).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool associate_memories: cannot be combined with top-level memory1_id/memory2_id at associations',
			);
		});
	});

	describe('update_memory (seed 001)', () => {
		beforeAll(async () => {
			data(
				await c.call('store_memory', {
					id: SEED_001_ID,
					content: 'PostgreSQL chosen for ACID.',
					tags: ['project-x'],
					importance: 0.6,
					metadata: { owner: 'mina' },
				}),
			);
		});

		it(`update_memory({ memory_id: "${SEED_001_ID}", importance: 0.95 }) // Increase importance`, async () => {
			const r = await c.call('update_memory', { memory_id: SEED_001_ID, importance: 0.95 });
			expect(data(r)).toEqual({
				memory_id: SEED_001_ID,
				message: `Memory ${SEED_001_ID} updated successfully!`,
			});
			expect(text(r)).toBe(`Memory ${SEED_001_ID} updated successfully!`);
			expect((await engine.getMemories([SEED_001_ID]))[0]!.importance).toBe(0.95);
		});

		it(`update_memory({ memory_id: "${SEED_001_ID}", tags: ["project-x", "critical", "auth"] }) // Add tags`, async () => {
			data(
				await c.call('update_memory', {
					memory_id: SEED_001_ID,
					tags: ['project-x', 'critical', 'auth'],
				}),
			);
			expect((await engine.getMemories([SEED_001_ID]))[0]!.tags).toEqual(['project-x', 'critical', 'auth']);
		});

		it(`update_memory({ memory_id: "${SEED_001_ID}", content: "Updated: PostgreSQL chosen for ACID + team expertise" })`, async () => {
			data(
				await c.call('update_memory', {
					memory_id: SEED_001_ID,
					content: 'Updated: PostgreSQL chosen for ACID + team expertise',
				}),
			);
			const [m] = await engine.getMemories([SEED_001_ID]);
			expect(m).toMatchObject({
				content: 'Updated: PostgreSQL chosen for ACID + team expertise',
				metadata: { owner: 'mina' },
			});
			const found = data<{ results: { memory_id: string }[] }>(await c.call('recall_memory', { query: 'team expertise', limit: 1 }));
			expect(found.results[0].memory_id).toBe(SEED_001_ID);
		});

		it('merges metadata and reports an unknown id', async () => {
			data(await c.call('update_memory', { memory_id: SEED_001_ID, metadata: { reviewed: true } }));
			expect((await engine.getMemories([SEED_001_ID]))[0]!.metadata).toEqual({
				owner: 'mina',
				reviewed: true,
			});
			expect(errorText(await c.call('update_memory', { memory_id: 'missing', importance: 0.1 }))).toBe(
				'not_found: memory_id: no memory with id "missing"',
			);
		});
	});

	describe('recall_memory', () => {
		it('ranked mode (text): AutoMem blocks with ID and Created lines', async () => {
			const r = await c.call('recall_memory', {
				query: 'database architecture decisions',
				tags: ['architecture'],
				limit: 5,
			});
			const out = data<{
				mode: string;
				count: number;
				results: {
					memory_id: string;
					final_score: number;
					match_type: string;
					created_at: string;
				}[];
			}>(r);
			expect(out).toMatchObject({ mode: 'ranked', count: 1 });
			expect(Object.keys(out.results[0]).sort()).toEqual([
				'content',
				'created_at',
				'final_score',
				'importance',
				'match_type',
				'memory_id',
				'tags',
				'updated_at',
			]);
			expect(text(r)).toMatch(
				new RegExp(
					`^Found 1 memories:\\n\\n1\\. Chose PostgreSQL over MongoDB for user service\\. Need ACID for transactions\\. \\[architecture, database\\] \\(importance: 0\\.9\\) score=\\d\\.\\d{3} \\[hybrid\\]\\n   ID: ${out.results[0].memory_id}\\n   Created: \\S+  Updated: \\S+$`,
				),
			);
		});

		it('id fetch mode: memory_id returns the full record and ignores other parameters', async () => {
			const out = data<{
				mode: string;
				results: { memory_id: string; content: string; type: string }[];
			}>(
				await c.call('recall_memory', {
					memory_id: 'feature-456',
					query: 'ignored',
					tags: ['nothing'],
				}),
			);
			expect(out).toMatchObject({
				mode: 'id_fetch',
				count: 1,
				results: [
					{
						memory_id: 'feature-456',
						content: 'Feature 456 added CSV export of invoices to the billing dashboard.',
						type: 'Context',
					},
				],
			});
		});

		it('enumeration mode: every memory under a tag, paged, not ranked', async () => {
			const out = data<{
				mode: string;
				has_more: boolean;
				limit: number;
				offset: number;
				results: { tags: string[] }[];
			}>(await c.call('recall_memory', { tags: ['bench'], exhaustive: true, limit: 1 }));
			expect(out).toMatchObject({ mode: 'enumeration', has_more: true, limit: 1, offset: 0 });
			expect(out.results[0].tags).toContain('bench');
			expect(errorText(await c.call('recall_memory', { exhaustive: true }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool recall_memory: exhaustive: true requires non-empty tags at tags',
			);
			expect(errorText(await c.call('recall_memory', { tags: ['bench'], exhaustive: true, tag_mode: 'all' }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool recall_memory: tag_mode "all" is not allowed with exhaustive: true at tag_mode',
			);
		});

		it('returns current memories by default and history on request', async () => {
			const current = data<{ results: { content: string }[] }>(await c.call('recall_memory', { query: 'small local tools preference' }));
			expect(current.results.map((r) => r.content)).not.toContain('User prefers MySQL for small local tools.');
			const history = data<{ results: { content: string }[] }>(
				await c.call('recall_memory', {
					query: 'small local tools preference',
					state_mode: 'history',
				}),
			);
			expect(history.results.map((r) => r.content)).toContain('User prefers MySQL for small local tools.');
		});

		it('formats: items gives one block per memory, detailed adds fields, json echoes the structure', async () => {
			const items = await c.call('recall_memory', {
				tags: ['bench'],
				exhaustive: true,
				format: 'items',
			});
			expect(items.content.map((b) => (b as { text: string }).text)).toEqual(
				expect.arrayContaining([expect.stringMatching(/^\[\S+\] Flaky tests are quarantined within a day\.$/)]),
			);
			const detailed = await c.call('recall_memory', {
				query: 'flaky tests',
				format: 'detailed',
				limit: 1,
			});
			expect(text(detailed)).toMatch(
				/\n {2}Type: Context\n {2}Created: .*\n {2}Updated: .*\n {2}Importance: 0\.500\n {2}Confidence: \d\.\d{3}\n {2}Tags: bench\n {2}Score: /,
			);
			const json = await c.call('recall_memory', {
				query: 'flaky tests',
				format: 'json',
				limit: 1,
			});
			expect(JSON.parse(text(json))).toEqual(json.structuredContent);
		});

		it('previews long content at 700 characters and points to the id fetch', async () => {
			const runbook =
				`Runbook for restoring billing backups. ${'Step: verify the snapshot checksum, restore to staging, compare row counts. '.repeat(25)}`.slice(
					0,
					1990,
				);
			data(await c.call('store_memory', { content: runbook, tags: ['runbook'] }));
			const r = await c.call('recall_memory', { tags: ['runbook'], exhaustive: true });
			const out = data<{
				results: { content: string; content_truncated: boolean; content_chars: number }[];
			}>(r);
			expect(out.results[0]).toMatchObject({
				content_truncated: true,
				content_chars: runbook.length,
			});
			expect(out.results[0].content).toHaveLength(701);
			expect(text(r)).toContain('[Some content previews truncated — fetch full records with recall_memory({ memory_id: "<id>" }).]');
		});

		it('says so when nothing matches', async () => {
			expect(text(await c.call('recall_memory', { tags: ['no-such-tag'], exhaustive: true }))).toBe('No memories found matching your query.');
		});
	});

	describe('delete_memory and check_database_health', () => {
		it('deletes one by id with AutoMem messages', async () => {
			const r = await c.call('delete_memory', { memory_id: 'b' });
			expect(data(r)).toEqual({ memory_id: 'b', message: 'Memory b deleted successfully!' });
			expect(errorText(await c.call('delete_memory', { memory_id: 'b' }))).toBe('not_found: memory_id: no memory with id "b"');
		});

		it('bulk-deletes by tag', async () => {
			const r = await c.call('delete_memory', { tags: ['bench'] });
			expect(data(r)).toEqual({
				deleted_count: 2,
				tags: ['bench'],
				message: 'Bulk delete complete: removed 2 memories matching tag(s) bench.',
			});
			expect(errorText(await c.call('delete_memory', {}))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool delete_memory: give exactly one of memory_id or tags at memory_id',
			);
		});

		it('reports health with counts', async () => {
			const r = await c.call('check_database_health', {});
			const out = data<{
				status: string;
				backend: string;
				statistics: { memory_count: number; vector_count: number };
			}>(r);
			expect(out).toMatchObject({ status: 'healthy', backend: 'engram' });
			expect(out.statistics.memory_count).toBe((await engine.stats({})).total_memories);
			expect(text(r)).toMatch(/^✅ Memory Health Status\n\nStatus: healthy\nBackend: engram\nMemory count: \d+\nVector count: \d+/);
		});
	});
});
