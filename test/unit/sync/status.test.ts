/**
 * What the sync status says when a task fails: a full disk in words (PouchDB reports it as
 * "unknown" with the reason QuotaExceededError; the engine as quota_exceeded), not "unknown".
 */
import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/sync/status';

describe('sync error words', () => {
	it('says a full disk is a full disk, whoever reports it', () => {
		const pouch = Object.assign(new Error('unknown'), { name: 'indexed_db_went_bad', reason: 'QuotaExceededError' });
		const engine = Object.assign(new Error('The browser refused the write'), { code: 'quota_exceeded' });
		for (const e of [pouch, engine])
			expect(errorMessage(e)).toMatch(/^This device's storage is full: changes from the server wait until there is room\. Every memory here is intact;/);
	});

	it('names another failure of the sync database, and passes any other message on', () => {
		expect(errorMessage(Object.assign(new Error('unknown'), { name: 'indexed_db_went_bad', reason: 'AbortError' }))).toBe(
			"This device's sync database refused a write (AbortError); sync tries again.",
		);
		expect(errorMessage(new Error('Reading engram-sync-salt failed'))).toBe('Reading engram-sync-salt failed');
	});
});
