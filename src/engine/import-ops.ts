/**
 * import_memories. Engram JSON/JSONL (and Markdown) restore records exactly: ids, seqs,
 * timestamps, access counts, associations, entities and, when present, vectors (memories without
 * an active-model vector are embedded on the way in). The server-memory knowledge graph becomes
 * memories through the normal store path: each observation is a memory tagged with and linked to
 * its entity; each relation a RELATES_TO between the two entities' first memories, with the
 * relation type as `context`. Work is done in transactions of ≤ 500 records; bad records are
 * reported with their line numbers and skipped.
 */
import { MemoryError } from '../core/errors';
import { newMemoryId } from '../core/ids';
import { ImportInputSchema, LIMITS, StoreInputSchema, SYSTEM_ASSOCIATION_TYPES, toIso, type ImportInput, type ImportOutput } from '../core/schemas';
import { appendActivity } from '../store/activity';
import { linksOut, putLinks } from '../store/associations';
import { contentKey, sessionOf } from '../store/derived';
import { ensureEntities } from '../store/entities';
import { rowsWhere } from '../store/lookup';
import type { ActivityRow, AssociationRow, MemoryRow } from '../store/rows';
import { bumpStamp, ensureSeqAbove, readCounters, readWipedSeq, reserveSeqs } from '../store/settings';
import { associateMemories } from './associate-ops';
import { embedTexts, nowIso, type EngineContext } from './context';
import { deleteMemories } from './delete-ops';
import { entityKeys, resolveEntities } from './entity-keys';
import {
	detectFormat,
	EMPTY_FILE,
	isBlank,
	NotImportedList,
	parseGraphJsonl,
	parseJson,
	parseJsonl,
	parseMarkdownBundle,
	ImportErrors,
	type EngramBundle,
	type GraphBundle,
	type ImportedAssociation,
	type ImportedMemory,
	type Located,
} from './import-formats';
import { turnContext } from './doc';
import { addStableIds } from './import-ids';
import { graphLinks, graphPlan, type GraphItem } from './import-graph';
import { dropOrphanEntities } from './entity-orphans';
import { writeIndexed, type IndexChange } from './index-sync';
import { scopeKey, STORE_DEFAULTS, storeMemories } from './store-ops';
import type { Progress } from './types';
import { parseInput } from './validate';

/** Records per transaction. */
export const IMPORT_BATCH = LIMITS.batch;

type Counts = { imported: number; replaced: number; skipped: number; associations: number; entities: number; differing: number };

/** Imports data; see the module comment. */
export async function importMemories(ctx: EngineContext, input: ImportInput, actor = 'import', onProgress?: (p: Progress) => void): Promise<ImportOutput> {
	const p = parseInput(ImportInputSchema, input);
	// Before any format guess: a blank file is said to be empty (like "" is), not "not valid JSON".
	if (isBlank(p.data)) throw new MemoryError('invalid_input', `data: ${EMPTY_FILE}`, { issues: [{ path: 'data', rule: EMPTY_FILE }] });
	const counts: Counts = { imported: 0, replaced: 0, skipped: 0, associations: 0, entities: 0, differing: 0 };
	let errors: ImportErrors;
	let notImported = new NotImportedList();
	const format = !p.format || p.format === 'auto' ? detectFormat(p.data) : p.format;
	if (format === 'server-memory-jsonl') {
		const g = parseGraphJsonl(p.data);
		errors = g.errors;
		await importGraph(ctx, g, p, actor, counts, errors, onProgress);
	} else {
		const bundle =
			format === 'json' || format === 'mem0-json' || format === 'chat-json'
				? parseJson(p.data)
				: format === 'jsonl'
					? parseJsonl(p.data)
					: parseMarkdownBundle(p.data);
		errors = bundle.errors;
		notImported = bundle.notImported;
		await importBundle(ctx, bundle, p, actor, counts, errors, onProgress);
	}
	ctx.hub.emit({ kind: 'memories' });
	return output(counts, errors, notImported);
}

function output(c: Counts, errors: ImportErrors, notImported: NotImportedList): ImportOutput {
	// In file order, whichever pass (parse, memories, links) found them; every one counted.
	const n = errors.count;
	const left = notImported.count;
	const { differing, ...counts } = c;
	const skipped = `${c.skipped} skipped as existing${differing ? `, ${differing} of them different from the file's (the stored one kept)` : ''}`;
	return {
		success: n === 0,
		message: `Imported ${c.imported} memories (${c.replaced} replaced, ${skipped}), ${c.associations} associations, ${c.entities} entities${n ? `; ${n} record(s) refused` : ''}${left ? `; ${left} part(s) of the text not imported` : ''}`,
		...counts,
		...(differing ? { kept_differing: differing } : {}),
		refused: n,
		errors: errors.list(),
		...(left ? { not_imported: notImported.list() } : {}),
	};
}

// ---------------------------------------------------------------- Engram data

async function importBundle(
	ctx: EngineContext,
	b: EngramBundle,
	p: ImportInput,
	actor: string,
	counts: Counts,
	errors: ImportErrors,
	onProgress?: (p: Progress) => void,
): Promise<void> {
	await addStableIds(b.memories, p.scope);
	b.memories = lastOfEachId(b.memories, errors);
	const vectors = vectorsByMemory(ctx, b, errors);
	const total = b.memories.length + b.associations.length;
	let done = 0;
	for (let i = 0; i < b.memories.length; i += IMPORT_BATCH) {
		const batch = b.memories.slice(i, i + IMPORT_BATCH);
		await importMemoryBatch(ctx, batch, vectors, p, actor, counts, b.notImported);
		done += batch.length;
		onProgress?.({ task: 'import', done, total, message: 'memories' });
	}
	counts.entities = await restoreEntities(ctx, b);
	for (let i = 0; i < b.associations.length; i += IMPORT_BATCH) {
		const batch = b.associations.slice(i, i + IMPORT_BATCH);
		counts.associations += await importAssociationBatch(ctx, batch, errors);
		done += batch.length;
		onProgress?.({ task: 'import', done, total, message: 'associations' });
	}
}

/**
 * Within one file the last record for an id wins, in whichever batch it falls; each earlier one is
 * reported (a repeated id is not dropped without a word).
 */
function lastOfEachId(memories: Located<ImportedMemory>[], errors: ImportErrors): Located<ImportedMemory>[] {
	const last = new Map<string, number>();
	for (const { line, value } of memories) if (value.id !== undefined) last.set(value.id, line);
	return memories.filter(({ line, value }) => {
		const keep = value.id === undefined || last.get(value.id) === line;
		if (!keep) errors.add(line, `memory: id ${JSON.stringify(value.id)} is given again at line ${last.get(value.id!)}, which is imported`);
		return keep;
	});
}

/** Bundle vectors grouped by memory; active-model vectors of the wrong size, and vectors of no memory in the file, are refused. */
function vectorsByMemory(ctx: EngineContext, b: EngramBundle, errors: ImportErrors): Map<string, Map<string, Float32Array>> {
	const out = new Map<string, Map<string, Float32Array>>();
	const ids = new Set(b.memories.map((m) => m.value.id));
	for (const { line, value: v } of b.vectors) {
		// A vector is kept on its memory's row: one for no memory of the file would be dropped unsaid.
		if (!ids.has(v.memory_id)) {
			errors.add(line, `vector.memory_id: no memory ${JSON.stringify(v.memory_id)} is imported from this file (a vector comes in with its memory)`);
			continue;
		}
		if (v.model === ctx.embedder.modelId && v.vector.length !== ctx.embedder.dims) {
			errors.add(line, `vector.vector: must have ${ctx.embedder.dims} dimensions for ${v.model} (got ${v.vector.length})`);
			continue;
		}
		const m = out.get(v.memory_id) ?? new Map<string, Float32Array>();
		m.set(v.model, Float32Array.from(v.vector));
		out.set(v.memory_id, m);
	}
	return out;
}

/**
 * One batch: embeds only what will be written and lacks an active-model vector, then writes
 * everything in one transaction with a handful of bulk requests.
 */
async function importMemoryBatch(
	ctx: EngineContext,
	batch: Located<ImportedMemory>[],
	vectors: Map<string, Map<string, Float32Array>>,
	p: ImportInput,
	actor: string,
	counts: Counts,
	notImported: NotImportedList,
): Promise<void> {
	const now = nowIso(ctx);
	const given = new Map(batch.map((r) => [r.value.id, r]));
	// Within one file the last record for an id wins.
	const rows = [...new Map(batch.map(({ value }) => rowOf(value, p.scope, now)).map((r) => [r.id, r])).values()];
	addTurnContexts(rows);
	const onConflict = p.on_conflict ?? 'skip';
	const existing = new Set((await ctx.db.memories.bulkGet(rows.map((r) => r.id))).flatMap((r) => (r ? [r.id] : [])));
	const model = ctx.embedder.modelId;
	const need = rows.filter((r) => !vectors.get(r.id)?.has(model) && !(onConflict === 'skip' && existing.has(r.id)));
	const embedded = await embedTexts(
		ctx,
		need.map((r) => r.content),
	);
	need.forEach((r, i) => {
		const v = embedded[i];
		if (v) vectors.set(r.id, (vectors.get(r.id) ?? new Map()).set(model, v));
	});
	await ctx.lock.run(async () => {
		const change: IndexChange = { upserts: [], edges: [] };
		await writeIndexed(ctx, change, async () => {
			const kept = await writeImported(ctx, rows, vectors, onConflict, counts, change);
			for (const [row, stored] of kept) {
				const r = given.get(row.id);
				const fields = r ? differingFields(r.value, row, stored) : [];
				if (!fields.length) continue;
				counts.differing++;
				notImported.add(
					r?.line,
					`memory ${JSON.stringify(row.id)}: one with this id is already here with another ${fields.join(', ')}; the one here was kept (import with on_conflict "replace" to take the file's)`,
				);
			}
			await appendActivity(ctx.db, [{ at: now, actor, action: 'imported', detail: `${change.upserts.length} memories` }]);
			if (change.upserts.length) change.stamp = await bumpStamp(ctx.db);
		});
	});
}

/**
 * Gives each imported conversation turn without one (an Engram export carries them) the context
 * a store would have given it: the words of the turn before it in the batch (same scope and
 * session). The first turn of each conversation in a batch gets none: the previous one is not
 * looked up in the database.
 */
function addTurnContexts(rows: MemoryRow[]): void {
	const last = new Map<string, MemoryRow>();
	for (const r of rows) {
		const key = scopeKey(r.scope, r.session ?? '');
		const context = r.context === undefined ? turnContext(r, last.get(key)) : undefined;
		if (context !== undefined) r.context = context;
		last.set(key, r);
	}
}

/** The row an imported record becomes (seq is settled inside the transaction). */
function rowOf(m: ImportedMemory, scope: string | undefined, now: string): MemoryRow {
	const { refs, given } = resolveEntities(m.content, m.entities);
	const metadata = m.metadata ?? {};
	const timestamp = m.timestamp ? toIso(m.timestamp) : now;
	const row: MemoryRow = {
		id: m.id ?? newMemoryId(),
		seq: m.seq ?? 0,
		content: m.content,
		type: m.type ?? STORE_DEFAULTS.type,
		tags: [...new Set(m.tags ?? [])],
		scope: scope ?? m.scope ?? STORE_DEFAULTS.scope,
		importance: m.importance ?? STORE_DEFAULTS.importance,
		confidence: m.confidence ?? STORE_DEFAULTS.confidence,
		metadata,
		entities: refs,
		timestamp,
		updated_at: m.updated_at ? toIso(m.updated_at) : timestamp,
		access_count: m.access_count ?? 0,
		content_key: contentKey(m.content),
		entities_given: m.entities_given ?? given,
	};
	if (m.summary !== undefined) row.summary = m.summary;
	if (m.source !== undefined) row.source = m.source;
	if (m.last_accessed) row.last_accessed = toIso(m.last_accessed);
	if (m.t_valid) row.t_valid = toIso(m.t_valid);
	if (m.t_invalid) row.t_invalid = toIso(m.t_invalid);
	if (m.context !== undefined) row.context = m.context;
	const session = sessionOf(metadata);
	if (session !== undefined) row.session = session;
	return row;
}

/**
 * Writes a batch of imported rows: skips or replaces existing ids, keeps each record's seq when
 * no other memory holds it (else the replaced memory's seq, else a new one). Returns each skipped
 * row with the stored one kept in its place.
 */
async function writeImported(
	ctx: EngineContext,
	rows: MemoryRow[],
	vectors: Map<string, Map<string, Float32Array>>,
	onConflict: 'skip' | 'replace',
	counts: Counts,
	change: IndexChange,
): Promise<(readonly [MemoryRow, MemoryRow])[]> {
	const db = ctx.db;
	const existing = await db.memories.bulkGet(rows.map((r) => r.id));
	const write = rows.filter((_, i) => !(existing[i] && onConflict === 'skip'));
	const kept = rows.flatMap((r, i) => (existing[i] && onConflict === 'skip' ? [[r, existing[i]] as const] : []));
	counts.skipped += kept.length;
	if (write.length === 0) return kept;
	const old = new Map(existing.flatMap((r) => (r ? [[r.id, r] as const] : [])));
	const replaced = write.filter((r) => old.has(r.id)).map((r) => r.id);
	await settleSeqs(db, write, old);
	// A memory's vectors are those of the bundle (and the active model's, embedded if missing), on
	// its row: a replaced memory's old vectors go. It keeps the links it has (a bundle's links are
	// imported after its memories).
	for (const r of write) {
		const vs = vectors.get(r.id);
		if (vs?.size) r.vectors = Object.fromEntries(vs);
		else delete r.vectors;
	}
	await db.memories.bulkPut(write.map((r) => (old.has(r.id) ? { ...r, links: old.get(r.id)!.links } : r)));
	await ensureEntities(
		db,
		write.flatMap((r) => entityKeys(r.entities)),
	);
	if (replaced.length)
		await dropOrphanEntities(
			ctx,
			replaced.map((id) => old.get(id)!),
			write,
		);
	for (const r of write) change.upserts.push({ row: r, vector: vectors.get(r.id)?.get(ctx.embedder.modelId) ?? null });
	counts.replaced += replaced.length;
	counts.imported += write.length - replaced.length;
	return kept;
}

/** Fields a kept memory is compared on, as the file gives them (others: defaults, counts). */
const COMPARED = [
	'content',
	'summary',
	'type',
	'tags',
	'source',
	'scope',
	'importance',
	'confidence',
	'metadata',
	'timestamp',
	't_valid',
	't_invalid',
] as const;

/**
 * The fields a skipped record gives that differ from the memory kept in its place (the row as
 * the file would have made it, so dates and tags compare normalised). Empty for a file's own
 * memory imported back, however often it was read since.
 */
function differingFields(given: ImportedMemory, row: MemoryRow, stored: MemoryRow): string[] {
	return COMPARED.filter((f) => (f === 'scope' || given[f] !== undefined) && JSON.stringify(row[f]) !== JSON.stringify(stored[f]));
}

/**
 * Gives every row a seq that no other memory holds; imported seqs are kept where possible. A seq
 * this database gave out since its last wipe that no memory holds now is kept only by the memory
 * that had it, as far as the log tells (a `deleted` entry for the row's id): a deleted memory's
 * number went to another memory of a file, and memory-mcp's retried `delete_memory(5)` (its ids
 * are seqs) then deleted that one. Seqs from before the last wipe may come back (a restored backup).
 */
async function settleSeqs(db: EngineContext['db'], rows: MemoryRow[], old: Map<string, MemoryRow>): Promise<void> {
	const holders = new Map(
		(
			await rowsWhere(
				db.memories,
				'seq',
				rows.filter((r) => r.seq > 0).map((r) => r.seq),
			)
		).map((h) => [h.seq, h.id]),
	);
	const [given, wiped] = await Promise.all([readCounters(db).then((c) => c.seq), readWipedSeq(db)]);
	const freed = rows.filter((r) => r.seq > wiped && r.seq <= given && !holders.has(r.seq)).map((r) => r.id);
	const returning = new Set(
		freed.length === 0
			? []
			: (await db.activity.where('memory_id').anyOf(freed).toArray()).flatMap((a) => (a.action === 'deleted' && a.memory_id ? [a.memory_id] : [])),
	);
	const used = new Set<number>();
	const free = (seq: number, id: string) =>
		seq > 0 && !used.has(seq) && (holders.has(seq) ? holders.get(seq) === id : seq > given || seq <= wiped || returning.has(id));
	const later: MemoryRow[] = [];
	for (const r of rows) {
		const prior = old.get(r.id)?.seq;
		if (free(r.seq, r.id)) used.add(r.seq);
		else if (prior !== undefined && free(prior, r.id)) used.add((r.seq = prior));
		else later.push(r);
	}
	// New numbers come after every kept one, so they cannot collide within the batch.
	if (used.size) await ensureSeqAbove(db, Math.max(...used));
	if (later.length) {
		const first = await reserveSeqs(db, later.length);
		later.forEach((r, i) => (r.seq = first + i));
	}
}

/**
 * Restores entity display names and aliases from the export (counts and first/last seen are
 * derived from the memories). Bumps the write stamp like every write: a store trusts the entity
 * rows it remembers only while the stamp is unchanged (write-guess.ts).
 */
async function restoreEntities(ctx: EngineContext, b: EngramBundle): Promise<number> {
	let total = 0;
	for (let i = 0; i < b.entities.length; i += IMPORT_BATCH) {
		const batch = b.entities.slice(i, i + IMPORT_BATCH).map(({ value }) => value);
		total += await ctx.lock.run(async () => {
			const { n, stamp } = await ctx.db.write(async () => {
				const rows = await ctx.db.entities.bulkGet(batch.map((e) => e.id));
				const put = batch.flatMap((e, k) => {
					const row = rows[k];
					return row ? [{ ...row, name: e.name, aliases: e.aliases ?? row.aliases }] : [];
				});
				if (put.length) await ctx.db.entities.bulkPut(put);
				return { n: put.length, stamp: put.length ? await bumpStamp(ctx.db) : undefined };
			});
			if (stamp !== undefined) ctx.committed(stamp, { upserts: [], removed: [], edges: [] });
			return n;
		});
	}
	return total;
}

/** Writes associations whose both ends exist; the others are reported. */
async function importAssociationBatch(ctx: EngineContext, batch: EngramBundle['associations'], errors: ImportErrors): Promise<number> {
	const at = nowIso(ctx);
	return ctx.lock.run(async () => {
		const change: IndexChange = { upserts: [], edges: [] };
		await writeIndexed(ctx, change, async () => {
			const ends = await ctx.db.memories.bulkGet([...new Set(batch.flatMap(({ value: a }) => [a.from, a.to]))]);
			const rows = new Map(ends.flatMap((r) => (r ? [[r.id, r] as const] : [])));
			for (const { line, value: a } of batch) {
				const missing = !rows.has(a.from) ? 'from' : !rows.has(a.to) ? 'to' : undefined;
				if (missing) {
					errors.add(line, `association: ${missing} memory ${JSON.stringify(a[missing])} does not exist`);
					continue;
				}
				// A link already there as given (a re-imported file) is neither written nor counted.
				if (
					sameLink(
						linksOut(rows.get(a.from)).find((l) => l.to === a.to && l.type === a.type),
						a,
					)
				)
					continue;
				change.edges.push({ ...a, created_at: a.created_at ? toIso(a.created_at) : at });
			}
			await putLinks(ctx.db, change.edges, rows);
			if (change.edges.length) change.stamp = await bumpStamp(ctx.db);
		});
		return change.edges.length;
	});
}

/**
 * Whether a stored link already says what an imported one says: every field equal, and the times
 * too where the import gives them (notes' links carry none).
 */
function sameLink(stored: AssociationRow | undefined, a: ImportedAssociation): boolean {
	if (!stored) return false;
	const times = new Set(['created_at', 'updated_at']);
	const fields = (o: object) => Object.entries(o).filter(([k, v]) => v !== undefined && !times.has(k));
	const mine = fields(stored);
	const theirs = new Map(fields(a));
	if (mine.length !== theirs.size || mine.some(([k, v]) => JSON.stringify(v) !== JSON.stringify(theirs.get(k)))) return false;
	const at = (t: string | undefined) => (t === undefined ? undefined : toIso(t));
	return [...times].every((k) => a[k as 'created_at'] === undefined || at(a[k as 'created_at']) === at(stored[k as 'created_at']));
}

// ---------------------------------------------------------------- sync's apply, one transaction

const SYSTEM_LINKS = new Set<string>(SYSTEM_ASSOCIATION_TYPES);

/**
 * Sync's apply (sync-records.ts `applySyncRecords`): an Engram JSON bundle whose memories replace
 * the ones here, each with exactly the caller-authored links the bundle gives it (a link it had
 * and the bundle lacks is removed; SIMILAR_TO and PRECEDED_BY stay), the bundle's other links
 * (from memories already here into these) added, and `history` appended: all in one transaction,
 * so a failure (a full disk) leaves every memory, its links and its history as they were. A link
 * whose other end is not here is refused (reported, the rest applied).
 */
export async function importExact(ctx: EngineContext, data: string, history: ActivityRow[], actor: string): Promise<ImportOutput> {
	const b = parseJson(data);
	const errors = b.errors;
	const counts: Counts = { imported: 0, replaced: 0, skipped: 0, associations: 0, entities: 0, differing: 0 };
	const memories = lastOfEachId(b.memories, errors);
	const now = nowIso(ctx);
	const rows = [...new Map(memories.map(({ value }) => rowOf(value, undefined, now)).map((r) => [r.id, r])).values()];
	addTurnContexts(rows);
	const vectors = new Map<string, Map<string, Float32Array>>();
	const model = ctx.embedder.modelId;
	const embedded = await embedTexts(
		ctx,
		rows.map((r) => r.content),
	);
	rows.forEach((r, i) => embedded[i] && vectors.set(r.id, new Map([[model, embedded[i]!]])));
	await ctx.lock.run(async () => {
		const change: IndexChange = { upserts: [], edges: [], removedEdges: [] };
		await writeIndexed(ctx, change, async () => {
			await writeImported(ctx, rows, vectors, 'replace', counts, change);
			counts.associations = await setExactLinks(ctx, rows, b.associations, errors, change);
			await appendActivity(ctx.db, [{ at: now, actor, action: 'imported', detail: `${change.upserts.length} memories` }, ...history]);
			change.stamp = await bumpStamp(ctx.db);
		});
	});
	ctx.hub.emit({ kind: 'memories' });
	return output(counts, errors, b.notImported);
}

/**
 * Inside `importExact`'s transaction: gives each of `rows` (just written) exactly the caller
 * links `given` has from it, and adds the others (into `rows` from memories here). Returns how
 * many links were written.
 */
async function setExactLinks(
	ctx: EngineContext,
	rows: MemoryRow[],
	given: EngramBundle['associations'],
	errors: ImportErrors,
	change: IndexChange,
): Promise<number> {
	const at = nowIso(ctx);
	const arriving = new Set(rows.map((r) => r.id));
	const ends = await ctx.db.memories.bulkGet([...new Set([...arriving, ...given.flatMap(({ value: a }) => [a.from, a.to])])]);
	const here = new Map(ends.flatMap((r) => (r ? [[r.id, r] as const] : [])));
	const wanted = new Map<string, AssociationRow[]>();
	const late: AssociationRow[] = [];
	for (const { line, value: a } of given) {
		const missing = !here.has(a.from) ? 'from' : !here.has(a.to) ? 'to' : undefined;
		if (missing) {
			errors.add(line, `association: ${missing} memory ${JSON.stringify(a[missing])} does not exist`);
			continue;
		}
		const link: AssociationRow = { ...a, created_at: a.created_at ? toIso(a.created_at) : at };
		if (arriving.has(a.from)) wanted.set(a.from, [...(wanted.get(a.from) ?? []), link]);
		else if (
			!sameLink(
				linksOut(here.get(a.from)).find((l) => l.to === a.to && l.type === a.type),
				a,
			)
		)
			late.push(link);
	}
	const put: MemoryRow[] = [];
	let written = 0;
	for (const id of arriving) {
		const row = here.get(id)!;
		const now = linksOut(row);
		const keep = wanted.get(id) ?? [];
		const keys = new Set(keep.map((l) => `${l.to}\u0000${l.type}`));
		const gone = now.filter((l) => !SYSTEM_LINKS.has(l.type) && !keys.has(`${l.to}\u0000${l.type}`));
		const added = keep.filter(
			(l) =>
				!sameLink(
					now.find((o) => o.to === l.to && o.type === l.type),
					l,
				),
		);
		if (!gone.length && !added.length) continue;
		change.removedEdges!.push(...gone);
		change.edges.push(...added);
		written += added.length;
		const system = (row.links ?? []).filter((l) => SYSTEM_LINKS.has(l.type));
		put.push({ ...row, links: [...system, ...keep.map(({ from: _f, ...l }) => l)] });
	}
	if (put.length) await ctx.db.memories.bulkPut(put);
	await putLinks(ctx.db, late, here);
	change.edges.push(...late);
	return written + late.length;
}

// ---------------------------------------------------------------- server-memory knowledge graph

/** One memory per observation (stable ids, so re-importing the same file skips what exists). */
async function importGraph(
	ctx: EngineContext,
	g: GraphBundle,
	p: ImportInput,
	actor: string,
	counts: Counts,
	errors: ImportErrors,
	onProgress?: (p: Progress) => void,
): Promise<void> {
	const { entities, items, anchors } = graphPlan(g, p.scope);
	const total = items.length + g.relations.length;
	let done = 0;
	for (let i = 0; i < items.length; i += IMPORT_BATCH) {
		const batch = items.slice(i, i + IMPORT_BATCH);
		await storeGraphBatch(ctx, batch, p.on_conflict ?? 'skip', actor, counts);
		done += batch.length;
		onProgress?.({ task: 'import', done, total, message: 'observations' });
	}
	counts.entities = entities.size;
	const links = await newLinks(ctx, graphLinks(g, anchors, errors));
	for (let i = 0; i < links.length; i += IMPORT_BATCH) {
		const r = await associateMemories(ctx, { associations: links.slice(i, i + IMPORT_BATCH) }, actor);
		counts.associations += r.created_count + r.updated_count;
		r.failed.forEach((f) => errors.add(undefined, f.error));
		done = Math.min(total, done + IMPORT_BATCH);
		onProgress?.({ task: 'import', done, total, message: 'relations' });
	}
}

/** The relations not already stored as given (re-importing a file neither rewrites nor counts them). */
async function newLinks(ctx: EngineContext, links: ReturnType<typeof graphLinks>): Promise<ReturnType<typeof graphLinks>> {
	const rows = await ctx.db.memories.bulkGet([...new Set(links.map((l) => l.memory1_id))]);
	const stored = new Map(rows.flatMap((r) => (r ? [[r.id, linksOut(r)] as const] : [])));
	return links.filter(({ memory1_id: from, memory2_id: to, type, strength, context }) => {
		const old = stored.get(from)?.find((l) => l.to === to && l.type === type);
		return !sameLink(old, { from, to, type, strength, context });
	});
}

/**
 * Stores a batch of observations. Replacing deletes the stored memories before storing their new
 * versions (two transactions: a store refuses an id that is taken), so nothing may make the store
 * fail after the delete that can be known before it: the items are checked first, and a disk
 * known to be full deletes nothing.
 */
async function storeGraphBatch(ctx: EngineContext, batch: GraphItem[], onConflict: 'skip' | 'replace', actor: string, counts: Counts): Promise<void> {
	const existing = new Set((await ctx.db.memories.bulkGet(batch.map((b) => b.id))).flatMap((r) => (r ? [r.id] : [])));
	if (existing.size && onConflict === 'replace') {
		parseInput(StoreInputSchema, { memories: batch });
		if (ctx.db.quotaFullSince !== undefined)
			throw new MemoryError(
				'quota_exceeded',
				'on_conflict: storage is full, so no memory was replaced (a replace deletes before it stores); free some space and import again',
			);
		await deleteMemories(ctx, { memory_ids: [...existing] }, actor);
	}
	const todo = onConflict === 'replace' ? batch : batch.filter((b) => !existing.has(b.id));
	if (onConflict === 'skip') counts.skipped += existing.size;
	else counts.replaced += existing.size;
	if (todo.length === 0) return;
	const r = await storeMemories(ctx, { memories: todo }, actor);
	counts.imported += r.stored_count - (onConflict === 'replace' ? existing.size : 0);
}
