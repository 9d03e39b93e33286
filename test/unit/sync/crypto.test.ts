/**
 * Sync encryption in Node (WebCrypto + hash-wasm): a key check refuses a wrong passphrase before
 * anything is written; a tampered box, a box moved to another document, or a foreign document
 * does not open.
 */
import { describe, expect, it } from 'vitest';
import { checkKey, newSaltDoc, open, seal, unlockSaltDoc, type KdfParams } from '../../../src/sync/crypto';
import { asRecord, compareVersions, fingerprint } from '../../../src/sync/records';

// Small parameters keep the test fast; the real default is 64 MiB × 3.
const FAST: KdfParams = { name: 'argon2id', memorySize: 1024, iterations: 1, parallelism: 1 };

describe('sync crypto', () => {
	it('unlocks with the right passphrase and refuses a wrong one', async () => {
		const { doc, key } = await newSaltDoc('correct horse', FAST);
		const box = await seal(key, { content: 'secret' }, 'm1');
		expect(JSON.stringify(doc)).not.toContain('secret');
		const again = await unlockSaltDoc(JSON.parse(JSON.stringify(doc)), 'correct horse');
		expect(await open(again, box, 'm1')).toEqual({ content: 'secret' });
		await expect(unlockSaltDoc(doc, 'wrong')).rejects.toMatchObject({ code: 'wrong-passphrase' });
		await expect(unlockSaltDoc({ v: 9 }, 'x')).rejects.toMatchObject({ code: 'bad-salt' });
	});

	it('checks a kept key against the current salt document (a rotated passphrase fails)', async () => {
		const { doc, key } = await newSaltDoc('correct horse', FAST);
		const rotated = await newSaltDoc('new passphrase', FAST);
		expect(await checkKey(key, doc)).toBe(true);
		expect(await checkKey(key, rotated.doc)).toBe(false);
		expect(await checkKey(key, { check: 'garbage' })).toBe(false);
		expect(await checkKey(key, null)).toBe(false);
	});

	it('refuses tampered, moved and foreign boxes', async () => {
		const { key } = await newSaltDoc('p', FAST);
		const box = await seal(key, { content: 'x' }, 'm1');
		const ct = Buffer.from(box.ct, 'base64');
		ct[0] ^= 1;
		await expect(open(key, { ...box, ct: ct.toString('base64') }, 'm1')).rejects.toThrow();
		await expect(open(key, box, 'm2')).rejects.toThrow();
		await expect(open(key, { hello: 'world' }, 'm1')).rejects.toThrow('not an Engram sync box');
	});

	it('checks records and orders versions by updated_at, then device', () => {
		const base = {
			id: 'a',
			content: 'c',
			type: 'Context',
			tags: [],
			scope: 'default',
			importance: 0.5,
			confidence: 0.8,
			metadata: {},
			timestamp: '2024-01-01T00:00:00.000Z',
			updated_at: '2024-01-02T00:00:00.000Z',
			links: [],
		};
		expect(asRecord('b', base)).toBe('its id does not match the document id');
		expect(typeof asRecord('a', base)).toBe('object');
		expect(compareVersions({ ...base, updated_at: '2024-01-03T00:00:00.000Z' }, base)).toBe(1);
		expect(compareVersions({ ...base, device: 'b' }, { ...base, device: 'a' })).toBe(1);
		expect(fingerprint({ ...base, device: 'x' })).toBe(fingerprint({ ...base, metadata: {}, device: 'y' }));
		expect(fingerprint({ ...base, content: 'd' })).not.toBe(fingerprint(base));
	});
});
