/**
 * Node-only helper: where the repository's built models live on disk. Kept out of embedder/ because a browser
 * bundle cannot resolve filesystem paths; there the app passes a URL path such as '/models/'.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute filesystem path of `<repo>/public/models/` (with a trailing separator), for `createEmbedder({ localModelPath })` in Node. */
export function nodeModelPath(): string {
	return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'models') + path.sep;
}
