/**
 * Sync encryption: a key derived from the person's passphrase with Argon2id (hash-wasm), used
 * for AES-GCM (WebCrypto). The salt, the KDF's parameters and a key check (an encryption of a
 * fixed string) travel in the database's `engram-sync-salt` document, so a second device derives
 * the same key and can tell a wrong passphrase before it writes anything.
 *
 * @example
 * const salt = await newSaltDoc('correct horse');
 * const key = await unlockSaltDoc(salt, 'correct horse'); // throws SyncError('wrong-passphrase') otherwise
 * const box = await seal(key, { content: 'x' });
 * await open(key, box); // { content: 'x' }
 */
import { argon2id } from 'hash-wasm';

/** The id of the document holding the salt, the KDF parameters and the key check. */
export const SALT_DOC_ID = 'engram-sync-salt';
/** The fixed text the key check encrypts. */
const CHECK_TEXT = 'engram-sync-key-check-v1';

/** Argon2id parameters (memory in KiB). 64 MiB, 3 passes: about a second in a browser's wasm. */
export interface KdfParams {
	name: 'argon2id';
	memorySize: number;
	iterations: number;
	parallelism: number;
}
export const DEFAULT_KDF: KdfParams = { name: 'argon2id', memorySize: 65_536, iterations: 3, parallelism: 1 };

/** An AES-GCM box: version, 96-bit IV and ciphertext (with its tag), both base64. */
export interface Box {
	v: 1;
	iv: string;
	ct: string;
}

/** The salt document as stored on the server (plain: it holds nothing secret). */
export interface SaltDoc {
	_id: typeof SALT_DOC_ID;
	_rev?: string;
	kind: 'engram-sync-salt';
	v: 1;
	salt: string;
	kdf: KdfParams;
	check: Box;
}

/** A sync failure with a code the UI words. */
export class SyncError extends Error {
	constructor(
		readonly code: 'wrong-passphrase' | 'bad-salt' | 'unreachable' | 'unauthorized' | 'forbidden' | 'no-database' | 'cors' | 'server',
		message: string,
	) {
		super(message);
		this.name = 'SyncError';
	}
}

export function toB64(bytes: Uint8Array): string {
	let s = '';
	for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(s);
}

export function fromB64(s: string): Uint8Array<ArrayBuffer> {
	const bin = atob(s);
	const out = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
	return out;
}

/** Derives the AES-GCM key from a passphrase and salt. */
export async function deriveKey(passphrase: string, salt: Uint8Array, kdf: KdfParams = DEFAULT_KDF): Promise<CryptoKey> {
	const raw = await argon2id({
		password: passphrase.normalize('NFC'),
		salt,
		iterations: kdf.iterations,
		parallelism: kdf.parallelism,
		memorySize: kdf.memorySize,
		hashLength: 32,
		outputType: 'binary',
	});
	return crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

/** Encrypts a JSON value; `aad` (the document id) binds the box to its document. */
export async function seal(key: CryptoKey, value: unknown, aad = ''): Promise<Box> {
	const iv = crypto.getRandomValues(new Uint8Array(12));
	const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: enc.encode(aad) }, key, enc.encode(JSON.stringify(value)));
	return { v: 1, iv: toB64(iv), ct: toB64(new Uint8Array(ct)) };
}

/** Decrypts a box; throws when the box is malformed, tampered with, or for another key or document. */
export async function open(key: CryptoKey, box: unknown, aad = ''): Promise<unknown> {
	const b = box as Partial<Box> | null;
	if (!b || typeof b !== 'object' || b.v !== 1 || typeof b.iv !== 'string' || typeof b.ct !== 'string') throw new Error('not an Engram sync box');
	const pt = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromB64(b.iv), additionalData: enc.encode(aad) }, key, fromB64(b.ct));
	return JSON.parse(dec.decode(pt));
}

/** A new salt document for a database that has none yet, and its key. */
export async function newSaltDoc(passphrase: string, kdf: KdfParams = DEFAULT_KDF): Promise<{ doc: SaltDoc; key: CryptoKey }> {
	const salt = crypto.getRandomValues(new Uint8Array(16));
	const key = await deriveKey(passphrase, salt, kdf);
	const check = await seal(key, CHECK_TEXT, SALT_DOC_ID);
	return { doc: { _id: SALT_DOC_ID, kind: 'engram-sync-salt', v: 1, salt: toB64(salt), kdf, check }, key };
}

/** The key for an existing salt document; SyncError('wrong-passphrase') when the check fails. */
export async function unlockSaltDoc(doc: unknown, passphrase: string): Promise<CryptoKey> {
	const d = doc as Partial<SaltDoc> | null;
	const k = d?.kdf;
	if (
		!d ||
		d.v !== 1 ||
		typeof d.salt !== 'string' ||
		!k ||
		k.name !== 'argon2id' ||
		![k.memorySize, k.iterations, k.parallelism].every((n) => Number.isInteger(n) && n > 0 && n <= 4_194_304)
	)
		throw new SyncError('bad-salt', `The database's ${SALT_DOC_ID} document is not one Engram can read (another app's, or a newer version's).`);
	const key = await deriveKey(passphrase, fromB64(d.salt), k);
	if (!(await checkKey(key, d)))
		throw new SyncError('wrong-passphrase', 'Wrong passphrase: this database was encrypted with another passphrase. Nothing was changed on this device.');
	return key;
}

/** Whether `key` opens the salt document's key check (a kept key against the database's current salt). */
export async function checkKey(key: CryptoKey, doc: unknown): Promise<boolean> {
	try {
		return (await open(key, (doc as Partial<SaltDoc> | null)?.check, SALT_DOC_ID)) === CHECK_TEXT;
	} catch {
		return false;
	}
}
