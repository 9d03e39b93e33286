/**
 * Where the pairing token comes from when neither --token nor ENGRAM_RELAY_TOKEN gives one: a
 * token generated once and saved (mode 0600) in the relay's config directory. Saving it matters:
 * desktop clients restart the relay every time they launch, and the paired tab reconnects by
 * itself only if the token is still the same; a second relay on the same port needs it to join.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { validateToken } from './args';

/** The relay's config directory: $ENGRAM_RELAY_HOME, else $XDG_CONFIG_HOME/engram, else ~/.config/engram. */
export function configDir(env: NodeJS.ProcessEnv): string {
	if (env.ENGRAM_RELAY_HOME) return env.ENGRAM_RELAY_HOME;
	return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'engram');
}

/**
 * A new random token: 48 hex characters (192 bits). Hex, not base64url: a token starting with '-'
 * would read as an option in `--token TOKEN`.
 */
export function generateToken(): string {
	return randomBytes(24).toString('hex');
}

/**
 * Refuses a token file another user could read or change, or that another user owns: whoever
 * can read it can pair with the relay (POSIX only; Windows has no such mode bits).
 */
function checkPrivate(path: string, fd: number): void {
	if (process.platform === 'win32' || typeof process.getuid !== 'function') return;
	const st = fstatSync(fd);
	const uid = process.getuid();
	if (st.uid !== uid)
		throw new Error(`${path} belongs to another user (uid ${st.uid}, not ${uid}): it must be yours alone; remove it and engram-relay makes a new one`);
	if ((st.mode & 0o077) !== 0)
		throw new Error(`${path} is open to other users (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}): run chmod 600 ${path}`);
}

/** The saved token, or a new one saved for next time. `source` says which, for the log. */
export function loadOrCreateToken(dir: string): {
	token: string;
	source: 'saved' | 'generated';
	path: string;
} {
	const path = join(dir, 'relay-token');
	let fd: number | undefined;
	try {
		fd = openSync(path, 'r');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
	}
	if (fd !== undefined) {
		try {
			checkPrivate(path, fd);
			const saved = readFileSync(fd, 'utf8').trim();
			return { token: validateToken(saved, path), source: 'saved', path };
		} finally {
			closeSync(fd);
		}
	}
	const token = generateToken();
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	// 'wx' so two relays starting at the same moment cannot both write: the loser reads the winner's.
	try {
		writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateToken(dir);
		throw e;
	}
	chmodSync(path, 0o600);
	return { token, source: 'generated', path };
}
