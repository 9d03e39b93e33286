/**
 * Hash routing for the app: `#/` (with the list's search and filters as `?q=…&tag=…`, see
 * src/ui/search-url.ts), `#/memory/<id>`, `#/graph`, `#/graph/<id>`, `#/connections`,
 * `#/import`, `#/settings`. Hashes that are not routes (the relay pairing link
 * `#relay=ws://…&token=…`) belong to the MCP host, which reads and clears them; the router
 * ignores them and keeps showing the current screen.
 */

import { toWellFormed } from '../../core/well-formed';

/** A screen the app can show, with its parameter where it has one. */
export type Route =
	| { name: 'memories'; search?: string }
	| { name: 'memory'; id: string }
	| { name: 'graph'; id?: string; query?: string }
	| { name: 'connections' }
	| { name: 'import' }
	| { name: 'settings' }
	| { name: 'not-found'; path: string };

/**
 * A path segment for any string, never throwing. encodeURIComponent throws URIError on a lone
 * surrogate, and one stored id with one blanked the memory list (issue 23); such a code unit is
 * written `~uD800` instead, and a literal `~` as `%7E`, so decodeSegment gives the exact id back.
 */
export function encodeSegment(s: string): string {
	let out = '';
	let run = 0;
	for (let i = 0; i <= s.length; i++) {
		const c = i < s.length ? s.charCodeAt(i) : -1;
		const high = c >= 0xd800 && c <= 0xdbff;
		const pair = high && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
		if (c !== -1 && !(c >= 0xd800 && c <= 0xdfff && !pair)) {
			if (pair) i++;
			continue;
		}
		out += encodeURIComponent(s.slice(run, i)).replaceAll('~', '%7E');
		if (c !== -1) out += `~u${c.toString(16).toUpperCase().padStart(4, '0')}`;
		run = i + 1;
	}
	return out;
}

/** The inverse of encodeSegment; a malformed escape (a hand-typed `%E0`) is kept as typed. */
export function decodeSegment(s: string): string {
	return s
		.split(/(~u[0-9A-Fa-f]{4})/)
		.map((part) => {
			if (/^~u[0-9A-Fa-f]{4}$/.test(part)) return String.fromCharCode(parseInt(part.slice(2), 16));
			try {
				return decodeURIComponent(part);
			} catch {
				return part;
			}
		})
		.join('');
}

/** Parses a location hash into a route; undefined for hashes that are not routes. */
export function parseHash(hash: string): Route | undefined {
	const raw = hash.replace(/^#/, '');
	if (raw !== '' && !raw.startsWith('/')) return undefined;
	const [path, queryString = ''] = raw.split('?');
	const parts = (path || '/').split('/').filter(Boolean).map(decodeSegment);
	const params = new URLSearchParams(queryString);
	switch (parts[0]) {
		case undefined:
			return queryString ? { name: 'memories', search: queryString } : { name: 'memories' };
		case 'memory':
			return parts[1] ? { name: 'memory', id: parts[1] } : { name: 'memories' };
		case 'graph':
			return { name: 'graph', id: parts[1], query: params.get('q') ?? undefined };
		case 'connections':
		case 'import':
		case 'settings':
			return { name: parts[0] };
		default:
			return { name: 'not-found', path: '/' + parts.join('/') };
	}
}

/** The hash for a route (inverse of parseHash). */
export function hashFor(route: Route): string {
	switch (route.name) {
		case 'memories':
			return route.search ? `#/?${route.search}` : '#/';
		case 'memory':
			return `#/memory/${encodeSegment(route.id)}`;
		case 'graph': {
			const base = route.id ? `#/graph/${encodeSegment(route.id)}` : '#/graph';
			return route.query ? `${base}?q=${encodeURIComponent(toWellFormed(route.query))}` : base;
		}
		case 'not-found':
			return '#' + route.path;
		default:
			return `#/${route.name}`;
	}
}

/** The current route, kept in step with `location.hash`. Create one per app. */
export class Router {
	current = $state<Route>({ name: 'memories' });

	constructor() {
		this.current = parseHash(location.hash) ?? { name: 'memories' };
	}

	/** Starts listening to hash changes; returns a function that stops. */
	listen(): () => void {
		const onHash = () => {
			const next = parseHash(location.hash);
			if (next) this.current = next;
		};
		addEventListener('hashchange', onHash);
		return () => removeEventListener('hashchange', onHash);
	}

	/** Navigates to a route (adds a history entry). */
	go(route: Route): void {
		const hash = hashFor(route);
		if (location.hash === hash) this.current = route;
		else location.hash = hash;
	}
}
