/**
 * Compact text renderings of the native tools' results, for `content[0].text`. Agents read this
 * text first, so it leads with the answer, shows ids they can pass on, and stays bounded: every
 * rendering is cut at TEXT_CAP characters with a note that structuredContent holds the rest.
 * Also the bounding helpers the tools use on structured output.
 */
import type { ConnectionsOutput, GraphQueryOutput } from '../core/graph-schemas';
import { counted } from '../core/counts';
import { mergeNote } from '../core/merge-note';
import type {
	AssociateOutput,
	DeleteOutput,
	ExportOutput,
	FindByEntityOutput,
	GetOutput,
	HealthOutput,
	ImportOutput,
	MemoryBrief,
	RecallOutput,
	StatsOutput,
	StoreOutput,
	TimelineOutput,
	TrendingOutput,
	UpdateOutput,
} from '../core/schemas';

/** Longest `content[0].text` any tool returns (≈ 4k tokens). */
export const TEXT_CAP = 16_000;
/** Most memory-content characters one structured result carries (recall, timeline, entity lists). */
export const CONTENT_BUDGET = 200_000;

/** `s` cut to `n` characters with an ellipsis. */
export function clip(s: string, n: number): string {
	return s.length <= n ? s : `${s.slice(0, Math.max(0, n - 1))}…`;
}

/** One line of at most `n` characters: whitespace collapsed, then clipped. */
export function oneLine(s: string, n = 160): string {
	return clip(s.replace(/\s+/g, ' ').trim(), n);
}

/** Cuts a rendering at `cap`, saying where the rest is. */
export function boundText(s: string, cap = TEXT_CAP): string {
	if (s.length <= cap) return s;
	return `${s.slice(0, cap - 120)}\n… [text cut at ${cap} chars; the structured result has every field]`;
}

/** Most issue lines an argument error lists (a batch of 500 bad items listed every field of each). */
export const ISSUE_LINES = 10;

/**
 * An error text of one issue per line (the SDK's argument validation) cut to its first
 * ISSUE_LINES lines and TEXT_CAP/8 characters, saying how many more there were.
 */
export function boundIssues(text: string, lines = ISSUE_LINES): string {
	const all = text.split('\n');
	const cap = TEXT_CAP / 8;
	if (all.length <= lines && text.length <= cap) return text;
	const kept = all.slice(0, lines).map((l) => clip(l, 300));
	const more = all.length - kept.length;
	return clip(kept.join('\n'), cap) + (more > 0 ? `\n… and ${more} more issues like these` : '');
}

/** `2024-05-01 14:03` from an ISO date (UTC). */
export function shortDate(iso: string | undefined): string {
	return iso ? iso.slice(0, 16).replace('T', ' ') : '?';
}

/**
 * Shrinks the longest texts of `items` until their total fits `budget`, in place; true when it
 * cut anything. Fair share: every item keeps at least budget/n characters.
 */
export function fitContents<T>(items: T[], get: (t: T) => string, set: (t: T, s: string) => void, budget = CONTENT_BUDGET): boolean {
	const total = items.reduce((n, t) => n + get(t).length, 0);
	if (total <= budget || items.length === 0) return false;
	const share = Math.floor(budget / items.length);
	for (const t of items) if (get(t).length > share) set(t, clip(get(t), share));
	return true;
}

/** One list line for a memory: `#seq id [type] date tags — text`. */
export function memoryLine(m: MemoryBrief, n = 200): string {
	const tags = m.tags.length ? ` {${m.tags.slice(0, 8).join(', ')}}` : '';
	const gone = m.t_invalid ? ' (superseded)' : '';
	return `#${m.seq} ${m.id} [${m.type}] ${shortDate(m.timestamp)}${tags}${gone} — ${oneLine(m.summary ?? m.content, n)}`;
}

function lines(head: string, body: string[], tail?: string): string {
	return boundText([head, ...body, ...(tail ? [tail] : [])].join('\n'));
}

/** store_memory. */
export function renderStore(out: StoreOutput): string {
	if (out.results.length === 1) {
		const r = out.results[0];
		if (r.status === 'duplicate')
			return `Not stored again: near-duplicate of #${r.seq} ${r.duplicate_of} (similarity ${r.similarity?.toFixed(2) ?? '?'})${mergeNote(r)}. Use update_memory to change it, or pass force: true to keep both.`;
		const ents = r.entities?.length ? `\nEntities: ${r.entities.map((e) => `${e.name} (${e.type})`).join(', ')}` : '';
		const near = r.near_duplicate_of
			? `\nNearly repeats ${r.near_duplicate_of} (similarity ${r.similarity?.toFixed(2) ?? '?'}): kept apart for its given id, linked SIMILAR_TO.`
			: '';
		const may = r.possible_update_of?.length
			? `\nMay update ${r.possible_update_of.join(', ')} (same subject, another number, name or negation): if it replaces one, store with supersedes_memory_id or update_memory.`
			: '';
		return `Stored #${r.seq} ${r.memory_id}.${ents}${near}${may}`;
	}
	const body = out.results
		.slice(0, 50)
		.map((r) =>
			r.status === 'duplicate'
				? `[${r.index}] duplicate of ${r.duplicate_of}${mergeNote(r)}`
				: `[${r.index}] #${r.seq} ${r.memory_id}${r.near_duplicate_of ? ` (nearly repeats ${r.near_duplicate_of})` : ''}${r.possible_update_of?.length ? ` (may update ${r.possible_update_of.join(', ')})` : ''}`,
		);
	const more = out.results.length > 50 ? `… ${out.results.length - 50} more in structuredContent.results` : undefined;
	return lines(`Stored ${out.stored_count} of ${out.results.length} (${out.duplicate_count} near-duplicates kept as existing).`, body, more);
}

/** recall_memory. */
export function renderRecall(out: RecallOutput): string {
	if (out.results.length === 0) return `No memories matched.${out.lexical_only ? ' (lexical only: no word of the query is known to the model)' : ''}`;
	const seqOf = new Map(out.results.map((r) => [r.memory.id, r.memory.seq]));
	const body = out.results.map((r, i) => {
		const via = r.match === 'expanded' ? ` via ${r.via ?? 'link'}` : '';
		const newer = r.newer_than
			? `; newer than ${r.newer_than.map((id) => `#${seqOf.get(id)}`).join(', ')}, may update ${r.newer_than.length > 1 ? 'them' : 'it'}`
			: '';
		return `${i + 1}. ${memoryLine(r.memory, 300)}\n   score ${r.score.toFixed(3)}${via}${newer}`;
	});
	const more = out.has_more ? `More results: call again with offset ${out.next_offset}.` : undefined;
	const head = `${out.results.length} of ${counted(out.count, 'memory', 'memories')}${out.lexical_only ? ' (lexical only)' : ''}:`;
	return lines(head, body, more);
}

/** get_memory. */
export function renderGet(out: GetOutput): string {
	const m = out.memory;
	const meta = [
		`#${m.seq} ${m.id} [${m.type}] scope ${m.scope}, created ${out.age} (${m.timestamp})`,
		`importance ${m.importance}, confidence ${m.confidence}, accessed ${m.access_count}×`,
		m.tags.length ? `tags: ${m.tags.join(', ')}` : '',
		m.source ? `source: ${m.source}` : '',
		m.t_invalid ? `superseded/invalid since ${m.t_invalid}` : '',
		m.entities.length ? `entities: ${m.entities.map((e) => `${e.name} (${e.type})`).join(', ')}` : '',
		m.summary ? `summary: ${m.summary}` : '',
	].filter(Boolean);
	const related = out.related_memories.map(
		(r) => `  ${r.direction === 'out' ? '→' : '←'} ${r.relation} #${r.seq} ${r.id} (${Math.round(r.similarity * 100)}%) ${oneLine(r.snippet, 100)}`,
	);
	return lines(meta.join('\n'), ['', m.content, ...(related.length ? ['', 'Related:', ...related] : [])]);
}

/** update_memory. */
export function renderUpdate(out: UpdateOutput): string {
	const what = out.changed.length ? out.changed.join(', ') : 'nothing (values were already so)';
	// A tags_add / tags_remove edit answers the tags the memory has now: an agent reads the text.
	const tags = out.tags ? ` Tags now: ${out.tags.length ? out.tags.join(', ') : '(none)'}.` : '';
	return `Updated #${out.seq} ${out.memory_id}: ${what}${out.re_embedded ? '; re-embedded' : ''}.${tags}`;
}

/** delete_memory. */
export function renderDelete(out: DeleteOutput): string {
	const ids = out.deleted_ids.slice(0, 20).join(', ');
	const missing = out.not_found?.length ? ` Not found: ${out.not_found.join(', ')}.` : '';
	return boundText(
		`Deleted ${out.deleted_count} memor${out.deleted_count === 1 ? 'y' : 'ies'}${ids ? ` (${ids}${out.deleted_ids.length > 20 ? ', …' : ''})` : ''}, ${out.associations_removed} links removed.${missing}`,
	);
}

/** associate_memories. */
export function renderAssociate(out: AssociateOutput): string {
	const ok = out.succeeded.slice(0, 30).map((s) => `  ${s.memory1_id} -${s.type} ${s.strength}-> ${s.memory2_id} (${s.status})`);
	const bad = out.failed.slice(0, 30).map((f) => `  [${f.index}] ${f.code}: ${f.error}`);
	return lines(out.message, [...ok, ...(bad.length ? ['Failed:', ...bad] : [])]);
}

/** list_memory_timeline. */
export function renderTimeline(out: TimelineOutput): string {
	if (out.memories.length === 0) return `No memories in that window (total ${out.total}).`;
	const more = out.has_more ? `More: call again with offset ${out.next_offset}.` : undefined;
	return lines(
		`${out.memories.length} of ${counted(out.total, 'memory', 'memories')}:`,
		out.memories.map((m) => memoryLine(m)),
		more,
	);
}

/** find_memories_by_entity. */
export function renderByEntity(out: FindByEntityOutput): string {
	const others = out.matches.length
		? `Similar entities: ${out.matches
				.slice(0, 10)
				.map((e) => `${e.name} (${e.id}, ${e.memory_count})`)
				.join('; ')}`
		: undefined;
	if (!out.entity) return [`No entity by that name.`, others].filter(Boolean).join('\n');
	const e = out.entity;
	const head = `${e.name} (${e.type}, id ${e.id}): ${counted(e.memory_count, 'memory', 'memories')}, ${shortDate(e.first_seen)} → ${shortDate(e.last_seen)}`;
	const more = out.has_more ? `More: call again with offset ${out.next_offset}.` : undefined;
	return lines(head, [...out.memories.map((m) => memoryLine(m)), ...(others ? [others] : [])], more);
}

function counts(rec: Record<string, number>, n = 12): string {
	return (
		Object.entries(rec)
			.sort((a, b) => b[1] - a[1])
			.slice(0, n)
			.map(([k, v]) => `${k} ${v}`)
			.join(', ') || '—'
	);
}

/** memory_stats. */
export function renderStats(out: StatsOutput): string {
	return boundText(
		[
			`${counted(out.total_memories, 'memory', 'memories')} (${out.current_memories} current), ${counted(out.total_associations, 'link')}, ${counted(out.total_entities, 'entity', 'entities')}.`,
			`By type: ${counts(out.by_type)}`,
			`By scope: ${counts(out.by_scope)}`,
			`Links: ${counts(out.by_association_type)}`,
			`Top tags: ${
				out.top_tags
					.slice(0, 12)
					.map((t) => `${t.tag} ${t.count}`)
					.join(', ') || '—'
			}`,
			`Top entities: ${
				out.top_entities
					.slice(0, 12)
					.map((e) => `${e.name} ${e.count}`)
					.join(', ') || '—'
			}`,
			`Span: ${shortDate(out.oldest)} → ${shortDate(out.newest)}; model ${out.active_model}`,
		].join('\n'),
	);
}

/** trending_labels. */
export function renderTrending(out: TrendingOutput): string {
	if (out.labels.length === 0) return 'No labels used in that window.';
	return lines(
		'Trending labels (count × 0.9^days since last seen):',
		out.labels.map((l) => `  ${l.label}: ${l.score.toFixed(2)} (${l.count}, last ${shortDate(l.last_seen)})`),
	);
}

/** check_database_health. */
export function renderHealth(out: HealthOutput): string {
	const d = out.database;
	return boundText(
		[
			`Status: ${out.status}`,
			`Database ${d.name} v${d.version}: ${counted(d.memories, 'memory', 'memories')}, ${counted(d.associations, 'link')}, ${counted(d.entities, 'entity', 'entities')}`,
			`Vectors: ${out.vector_index.vectors} (${out.vector_index.model}, ${out.vector_index.ready ? 'ready' : 'building'}); lexical ${out.lexical_index.documents} docs`,
			`Embedder: ${out.embedder.model} ${out.embedder.dims}d ${out.embedder.ready ? 'ready' : 'loading'}`,
			...out.issues.map((i) => `Issue: ${i}`),
		].join('\n'),
	);
}

/** export_memories: the data itself is in structuredContent.data. */
export function renderExport(out: ExportOutput): string {
	const more = out.has_more ? ` More: call again with after_seq ${out.next_after_seq}.` : '';
	return `Exported ${counted(out.memory_count, 'memory', 'memories')}, ${counted(out.association_count, 'link')}, ${counted(out.entity_count, 'entity', 'entities')} as ${out.format} (${out.data.length} chars, in structuredContent.data).${more}\n${clip(out.data, 2000)}`;
}

/** import_memories. */
export function renderImport(out: ImportOutput): string {
	const errs = out.errors.slice(0, 20).map((e) => `  ${e.line !== undefined ? `line ${e.line}: ` : ''}${e.error}`);
	return lines(out.message, errs);
}

/** find_memory_connections. */
export function renderConnections(out: ConnectionsOutput): string {
	const head = `grounding: ${out.grounding} — ${out.grounding_basis}`;
	const entry = out.entry.length ? [`Entry: ${out.entry.map((e) => `${e.event_id}${e.cosine !== null ? ` (${e.cosine.toFixed(2)})` : ''}`).join(', ')}`] : [];
	const cands = out.candidates.map((c) => {
		const cos = c.cosine === null ? '' : ` cos ${c.cosine.toFixed(2)} (p${Math.round(c.cosine_percentile ?? 0)})`;
		return `r${c.round} #${c.seq} ${c.event_id} ${shortDate(c.timestamp)}${cos} via ${c.bridge_entity_id ?? c.path[c.path.length - 2] ?? 'anchor'} — ${oneLine(c.summary, 160)}`;
	});
	const tail = out.truncations.length ? `Truncations: ${out.truncations.join('; ')}` : undefined;
	return lines(head, [...entry, ...(cands.length ? cands : ['No candidates.'])], tail);
}

/** query_memory_graph. */
export function renderGraphQuery(out: GraphQueryOutput): string {
	const flags = [out.has_more ? `has_more (SKIP ${out.next_skip})` : '', out.truncated ? 'truncated' : '', out.partial ? 'partial' : ''].filter(Boolean);
	const head = `${out.count} rows${flags.length ? ` [${flags.join(', ')}]` : ''}: ${out.columns.join(' | ')}`;
	const body = out.rows.map((r) => out.columns.map((c) => cell(r[c])).join(' | '));
	return lines(head, body, out.notes.length ? `Notes: ${out.notes.join('; ')}` : undefined);
}

function cell(v: unknown): string {
	if (v === null || v === undefined) return 'null';
	if (typeof v !== 'object') return oneLine(String(v), 200);
	const o = v as Record<string, unknown>;
	if (typeof o.id === 'string' && 'seq' in o) return `#${o.seq} ${o.id} ${oneLine(String(o.summary ?? o.snippet ?? ''), 120)}`;
	if (typeof o.id === 'string' && typeof o.name === 'string') return `${o.name} (${o.id})`;
	return oneLine(JSON.stringify(v), 200);
}

/** Most characters of JSON one structured result may carry (the SDK stdio client drops > 10 MiB). */
export const STRUCTURED_BUDGET = 1_000_000;

/** Metadata as is when small, else `{ _truncated, _chars, _keys }` (get_memory has it whole). */
export function compactMetadata(meta: Record<string, unknown>, max = 2000): Record<string, unknown> {
	const chars = JSON.stringify(meta).length;
	return chars <= max ? meta : { _truncated: true, _chars: chars, _keys: Object.keys(meta).slice(0, 50) };
}

/** How many leading items fit in `budget` characters of JSON (always at least one). */
export function countWithinBudget(items: unknown[], budget = STRUCTURED_BUDGET): number {
	let used = 0;
	for (let i = 0; i < items.length; i++) {
		used += JSON.stringify(items[i]).length + 1;
		if (used > budget && i > 0) return i;
	}
	return items.length;
}
