/**
 * Node-only helper: where the repository's built models live on disk. Kept out of embedder/ because a browser
 * bundle cannot resolve filesystem paths; there the app passes a URL path such as '/models/'.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCategories, type CategoryTable } from './search/categories';

/** Absolute filesystem path of `<repo>/public/models/` (with a trailing separator), for `createEmbedder({ localModelPath })` in Node. */
export function nodeModelPath(): string {
	return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'models') + path.sep;
}

/**
 * Node-only: WordNet's category table (public/models/engram/categories.json, built by
 * scripts/build-hyponyms.ts) for `createEngine({ categories })`; undefined when it is not built.
 */
export async function nodeCategories(): Promise<CategoryTable | undefined> {
	const file = path.join(nodeModelPath(), 'engram', 'categories.json');
	const text = await readFile(file, 'utf8').catch(() => undefined);
	return text === undefined ? undefined : parseCategories(text);
}
