/**
 * memory-mcp's labels and filters: labels given as a comma-separated or JSON-array string, fuzzy
 * label and source filters with `!` exclusion, and the newest-first scan that applies them.
 */
import { readPages } from '../../../core/paging';
import type { MemoryBrief } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';

/** Most memories a label/source scan reads (newest first) before it reports `approximate`. */
export const SCAN_CAP = 20_000;

/** Labels from a comma-separated string or a JSON array string (as memory-mcp accepts). */
export function normalizeLabels(v: string | string[] | undefined): string[] {
	if (v === undefined) return [];
	if (Array.isArray(v)) return v.map((s) => s.trim()).filter(Boolean);
	try {
		const parsed: unknown = JSON.parse(v);
		if (Array.isArray(parsed)) return parsed.map((s) => String(s).trim()).filter(Boolean);
	} catch {
		// Not JSON: a comma-separated list.
	}
	return v
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
}

/** "beer, !wine" → include [beer], exclude [wine]. */
export function parseLabelFilter(labels: string | undefined): {
	include: string[];
	exclude: string[];
} {
	const include: string[] = [];
	const exclude: string[] = [];
	for (const l of (labels ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean)) {
		if (!l.startsWith('!')) include.push(l);
		else if (l.slice(1).trim()) exclude.push(l.slice(1).trim());
	}
	return { include, exclude };
}

/** A parsed label and source filter. */
export interface Filter {
	include: string[];
	exclude: string[];
	source?: string;
	excludeSource: boolean;
}

/** The filter of a tool's `labels` and `source` arguments. */
export function makeFilter(labels?: string, source?: string): Filter {
	const s = source?.trim();
	const excludeSource = !!s?.startsWith('!');
	return {
		...parseLabelFilter(labels),
		source: (excludeSource ? s!.slice(1).trim() : s) || undefined,
		excludeSource,
	};
}

/** Whether the filter excludes anything at all. */
export function isFiltering(f: Filter): boolean {
	return f.include.length > 0 || f.exclude.length > 0 || f.source !== undefined;
}

/** Case-insensitive substring test: memory-mcp's fuzzy match. */
export const has = (hay: string, needle: string) => hay.toLowerCase().includes(needle.toLowerCase());

/** memory-mcp's fuzzy filter: any include label as a substring, no exclude label, source substring. */
export function matches(m: { tags: string[]; source?: string }, f: Filter): boolean {
	if (f.include.length && !f.include.some((l) => m.tags.some((t) => has(t, l)))) return false;
	if (f.exclude.some((l) => m.tags.some((t) => has(t, l)))) return false;
	if (f.source !== undefined) {
		const hit = m.source !== undefined && has(m.source, f.source);
		if (hit === f.excludeSource) return false;
	}
	return true;
}

/** Newest-first briefs passing `f`, up to `want` (all when undefined), scanning at most SCAN_CAP. */
export async function scan(engine: EngineApi, f: Filter, want?: number): Promise<{ hits: MemoryBrief[]; scanned: number; total: number }> {
	const hits: MemoryBrief[] = [];
	let total = 0;
	const { read } = await readPages(
		async (offset) => {
			const page = await engine.timeline({ limit: 200, offset, max_content_chars: 0 });
			total = page.total;
			// Offsets advance by the memories read, not next_offset (which counts index hits).
			return { items: page.memories, has_more: page.has_more };
		},
		SCAN_CAP,
		(items) => {
			for (const m of items) if (matches(m, f)) hits.push(m);
			return want !== undefined && hits.length >= want;
		},
	);
	return { hits: want === undefined ? hits : hits.slice(0, want), scanned: read, total };
}
