/**
 * The eval's category table: public/models/engram/categories.json (scripts/build-hyponyms.ts),
 * read once; undefined when ENGRAM_CATEGORIES=0 or the file is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseCategories, type CategoryTable } from '../../src/engine/search/categories';
import { nodeModelPath } from '../../src/engine/node-model-path';

let table: CategoryTable | undefined | null = null;

/** The parsed table, or undefined. */
export function categoryTable(): CategoryTable | undefined {
	if (table === null) {
		const file = path.join(nodeModelPath(), 'engram', 'categories.json');
		table = process.env.ENGRAM_CATEGORIES === '0' || !fs.existsSync(file) ? undefined : parseCategories(fs.readFileSync(file, 'utf8'));
	}
	return table;
}
