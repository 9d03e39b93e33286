/**
 * A relay pairing link's hash (`#relay=ws://127.0.0.1:PORT&token=TOKEN`), taken off the address
 * bar the moment the page starts. The app's entry (main.ts) calls `holdPairingLink` before anything
 * else, so the token does not sit in the address bar (or in a history entry the person makes by
 * navigating) while the engine worker starts, which takes seconds; the MCP host picks the link up
 * later with `takenPairingLink`. Dependency-free: main.ts is the small first chunk.
 */

/** The link's parts: the relay address and token (unchecked), and the hash without them. */
export function splitPairingHash(hash: string): { relay: string; token: string; rest: string } | undefined {
	const params = new URLSearchParams(hash.replace(/^#/, ''));
	const relay = params.get('relay');
	if (relay === null) return undefined;
	const token = params.get('token') ?? '';
	params.delete('relay');
	params.delete('token');
	const left = params.toString();
	return { relay, token, rest: left ? `#${left}` : '' };
}

/** The part of `window` this module uses. */
export interface LinkWindow {
	readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
	readonly history?: { readonly state: unknown; replaceState(data: unknown, unused: string, url?: string): void };
}

let taken = '';

/**
 * Removes a pairing link from the page's address (replacing the history entry, so Back does not
 * bring it back); returns its hash, or '' when there is none.
 */
export function takePairingLink(win: LinkWindow): string {
	const hash = win.location.hash;
	const link = splitPairingHash(hash);
	if (!link) return '';
	win.history?.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}${link.rest}`);
	return hash;
}

/** `takePairingLink` for the page's entry: the link is kept for the host's `takenPairingLink`. */
export function holdPairingLink(win: LinkWindow): void {
	taken = takePairingLink(win) || taken;
}

/** The link `holdPairingLink` took, once (then ''). */
export function takenPairingLink(): string {
	const hash = taken;
	taken = '';
	return hash;
}
