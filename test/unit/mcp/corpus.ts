/**
 * A small, realistic memory corpus for the MCP tests: a software team's decisions, incidents,
 * people and habits over 2025, with entities given explicitly so the entity graph is known.
 * PostgreSQL, billing-service and auth-service are hubs; Kafka, S3, Grafana are rare bridges.
 */
import type { EntityRef, StoreItem } from '../../../src/core/schemas';
import type { EngineApi } from '../../../src/engine/types';

const tool = (name: string): EntityRef => ({ name, type: 'tool' });
const project = (name: string): EntityRef => ({ name, type: 'project' });
const person = (name: string): EntityRef => ({ name, type: 'person' });
const concept = (name: string): EntityRef => ({ name, type: 'concept' });

/** key → memory; keys name the memories in assertions. */
export const CORPUS: Record<string, StoreItem> = {
	pgChoice: {
		content: 'Chose PostgreSQL over MongoDB for the billing service because invoices need ACID transactions.',
		type: 'Decision',
		tags: ['billing', 'database'],
		importance: 0.9,
		timestamp: '2025-01-10T09:00:00Z',
		entities: [tool('PostgreSQL'), tool('MongoDB'), project('billing-service')],
	},
	backups: {
		content: 'Mina set up nightly backups of the billing PostgreSQL database to S3.',
		type: 'Context',
		tags: ['billing', 'ops'],
		timestamp: '2025-02-03T10:00:00Z',
		entities: [tool('PostgreSQL'), person('Mina'), tool('S3'), project('billing-service')],
	},
	timeout: {
		content: 'The billing service timed out under load because the invoices table had no index on customer_id.',
		type: 'Insight',
		tags: ['billing', 'incident'],
		timestamp: '2025-03-15T14:00:00Z',
		entities: [project('billing-service'), tool('PostgreSQL')],
	},
	indexes: {
		content: 'Added composite indexes on invoices (customer_id, created_at); p95 latency fell from 900 ms to 80 ms.',
		type: 'Pattern',
		tags: ['billing', 'fix'],
		timestamp: '2025-03-16T11:00:00Z',
		entities: [tool('PostgreSQL'), project('billing-service')],
	},
	redisCache: {
		content: 'The session cache lives in Redis with a thirty minute expiry.',
		type: 'Context',
		tags: ['cache', 'auth'],
		timestamp: '2025-01-20T08:00:00Z',
		entities: [tool('Redis'), project('auth-service')],
	},
	redisOom: {
		content: 'Redis ran out of memory during the Black Friday sale and evicted sessions, logging customers out.',
		type: 'Insight',
		tags: ['incident', 'auth'],
		timestamp: '2025-11-28T20:00:00Z',
		entities: [tool('Redis'), project('auth-service')],
	},
	cacheMove: {
		content: 'Moved the session cache from Redis to PostgreSQL so sessions are never evicted.',
		type: 'Decision',
		tags: ['cache', 'auth'],
		timestamp: '2025-12-05T09:30:00Z',
		entities: [tool('Redis'), tool('PostgreSQL'), project('auth-service')],
	},
	earlyReturns: {
		content: 'Jonas prefers early returns over nested conditionals in code reviews.',
		type: 'Preference',
		tags: ['code-style'],
		timestamp: '2025-04-01T09:00:00Z',
		entities: [person('Jonas')],
	},
	tabs: {
		content: 'The team indents TypeScript with tabs and writes strings in single quotes.',
		type: 'Style',
		tags: ['code-style'],
		timestamp: '2025-04-02T09:00:00Z',
		entities: [tool('TypeScript')],
	},
	onCall: {
		content: 'Mina is the on-call owner for the billing service during the second quarter.',
		type: 'Context',
		tags: ['billing', 'people'],
		timestamp: '2025-04-10T09:00:00Z',
		entities: [person('Mina'), project('billing-service')],
	},
	grafana: {
		content: 'Grafana dashboards for billing latency live in the ops folder.',
		type: 'Context',
		tags: ['billing', 'ops'],
		timestamp: '2025-05-01T09:00:00Z',
		entities: [tool('Grafana'), project('billing-service')],
	},
	kafka: {
		content: 'We evaluated Kafka for billing events but kept an outbox table in PostgreSQL instead.',
		type: 'Decision',
		tags: ['billing', 'architecture'],
		timestamp: '2025-06-12T09:00:00Z',
		entities: [tool('Kafka'), tool('PostgreSQL'), project('billing-service')],
	},
	tsGuide: {
		content: 'Jonas wrote the migration guide for turning on TypeScript strict mode.',
		type: 'Context',
		tags: ['code-style', 'docs'],
		timestamp: '2025-07-01T09:00:00Z',
		entities: [person('Jonas'), tool('TypeScript')],
	},
	deploys: {
		content: 'Deploys to production happen on Tuesdays and Thursdays after the standup.',
		type: 'Habit',
		tags: ['process'],
		timestamp: '2025-02-20T09:00:00Z',
		entities: [concept('deploys')],
	},
	jwt: {
		content: 'The auth service signs JWT access tokens with RS256 keys rotated every ninety days.',
		type: 'Context',
		tags: ['auth', 'security'],
		timestamp: '2025-08-08T09:00:00Z',
		entities: [project('auth-service'), concept('JWT')],
	},
	sarahLead: {
		content: 'Sarah leads the auth service team since September.',
		type: 'Context',
		tags: ['auth', 'people'],
		timestamp: '2025-09-01T09:00:00Z',
		entities: [person('Sarah'), project('auth-service')],
	},
	opaque: {
		content: 'Sarah proposed replacing JWT sessions with opaque tokens stored in PostgreSQL.',
		type: 'Insight',
		tags: ['auth', 'security'],
		timestamp: '2025-12-10T09:00:00Z',
		entities: [person('Sarah'), concept('JWT'), tool('PostgreSQL'), project('auth-service')],
	},
	coffee: {
		content: 'The coffee machine on the third floor is broken again.',
		type: 'Context',
		tags: ['office'],
		timestamp: '2025-10-10T09:00:00Z',
		entities: [],
	},
	pg16: {
		content: 'The billing service moved from PostgreSQL 14 to PostgreSQL 16 in January.',
		type: 'Context',
		tags: ['billing', 'database'],
		timestamp: '2026-01-15T09:00:00Z',
		entities: [tool('PostgreSQL'), project('billing-service')],
	},
	planning: {
		content: 'Quarterly planning happens in the first week of each quarter.',
		type: 'Habit',
		tags: ['process'],
		timestamp: '2025-01-05T09:00:00Z',
		entities: [concept('planning')],
	},
};

export type CorpusKey = keyof typeof CORPUS;

/** Stores the corpus in one batch (forced: no item is a near-duplicate) and returns key → id. */
export async function seedCorpus(engine: EngineApi): Promise<Record<CorpusKey, string>> {
	const keys = Object.keys(CORPUS) as CorpusKey[];
	const out = await engine.store({ memories: keys.map((k) => ({ ...CORPUS[k], force: true })) });
	return Object.fromEntries(keys.map((k, i) => [k, out.results[i].memory_id])) as Record<CorpusKey, string>;
}
