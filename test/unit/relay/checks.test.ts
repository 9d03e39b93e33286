/** The relay's gatekeeping rules and its command line. */
import { describe, expect, it } from 'vitest';
import { parseRelayArgs } from '../../../relay/args';
import { bearerToken, checkHost, checkOrigin, isLoopbackOrigin, normaliseAllowedOrigin, tokenMatches } from '../../../relay/checks';
import { LineReader, MAX_LINE_BYTES, TOO_LONG, idOfTooLong } from '../../../relay/stdio';

describe('checks', () => {
	describe('checkHost', () => {
		it('accepts the loopback names with the relay’s port', () => {
			for (const h of ['127.0.0.1:17373', 'localhost:17373', '[::1]:17373', 'LOCALHOST:17373']) expect(checkHost(h, 17373)).toBeUndefined();
		});

		it('refuses another host, another port and a missing header (DNS rebinding)', () => {
			expect(checkHost('engram.attacker.example:17373', 17373)).toEqual({
				status: 403,
				message: 'Host "engram.attacker.example:17373" is refused: use 127.0.0.1:17373',
			});
			expect(checkHost('127.0.0.1:80', 17373)?.status).toBe(403);
			expect(checkHost('127.0.0.1', 17373)?.status).toBe(403);
			expect(checkHost(undefined, 17373)).toEqual({
				status: 400,
				message: 'Host header is required',
			});
		});
	});

	describe('checkOrigin', () => {
		it('accepts loopback origins on any port, allow-listed origins, and no Origin (a non-browser client)', () => {
			expect(checkOrigin('http://127.0.0.1:4173', [])).toBeUndefined();
			expect(checkOrigin('http://localhost:5173', [])).toBeUndefined();
			expect(checkOrigin('http://[::1]:8080', [])).toBeUndefined();
			expect(checkOrigin('https://engram.example', ['https://engram.example'])).toBeUndefined();
			expect(checkOrigin(undefined, [])).toBeUndefined();
		});

		it('refuses look-alikes and everything else', () => {
			for (const o of [
				'http://127.0.0.1.attacker.example:4173',
				'http://localhost.attacker.example',
				'https://engram.example',
				'null',
				'file://',
				'chrome-extension://abc',
			])
				expect(checkOrigin(o, [])?.status, o).toBe(403);
		});

		it('knows loopback origins exactly', () => {
			expect(isLoopbackOrigin('http://127.0.0.1:1')).toBe(true);
			expect(isLoopbackOrigin('ws://127.0.0.1:1')).toBe(false);
			expect(isLoopbackOrigin('http://127.0.0.1:1/path')).toBe(false);
		});
	});

	describe('tokens', () => {
		it('compares exactly', () => {
			expect(tokenMatches('abcdefghijklmnop', 'abcdefghijklmnop')).toBe(true);
			expect(tokenMatches('abcdefghijklmnoq', 'abcdefghijklmnop')).toBe(false);
			expect(tokenMatches('abc', 'abcdefghijklmnop')).toBe(false);
			expect(tokenMatches(null, 'abcdefghijklmnop')).toBe(false);
		});

		it('reads a bearer token', () => {
			expect(bearerToken('Bearer abc.def')).toBe('abc.def');
			expect(bearerToken('bearer   xyz ')).toBe('xyz');
			expect(bearerToken('Basic abc')).toBeUndefined();
			expect(bearerToken(undefined)).toBeUndefined();
		});
	});

	describe('normaliseAllowedOrigin', () => {
		it('keeps a bare origin and drops a trailing slash', () => {
			expect(normaliseAllowedOrigin('https://Engram.Example/')).toBe('https://engram.example');
			expect(normaliseAllowedOrigin('http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
		});

		it('refuses paths, wildcards and non-URLs', () => {
			expect(() => normaliseAllowedOrigin('https://engram.example/app')).toThrow(
				'--allow-origin "https://engram.example/app" must be an origin only (scheme://host[:port], no path, no wildcard)',
			);
			expect(() => normaliseAllowedOrigin('*')).toThrow('--allow-origin "*" is not a URL origin such as https://engram.example');
		});
	});
});

describe('parseRelayArgs', () => {
	it('has the documented defaults', () => {
		expect(parseRelayArgs([])).toEqual({
			port: 17373,
			profile: 'native',
			allowOrigins: [],
			token: undefined,
			tokenSource: undefined,
			pairingLink: false,
			appUrl: 'http://127.0.0.1:4173',
			httpOnly: false,
			help: false,
			version: false,
		});
	});

	it('reads every option, with --allow-origin repeatable', () => {
		const o = parseRelayArgs([
			'--port',
			'18000',
			'--profile',
			'memory-mcp',
			'--allow-origin',
			'https://a.example',
			'--allow-origin',
			'https://b.example',
			'--token',
			'abcdefghijklmnop1234',
			'--app-url',
			'https://a.example/engram/',
			'--http-only',
		]);
		expect(o).toMatchObject({
			port: 18000,
			profile: 'memory-mcp',
			allowOrigins: ['https://a.example', 'https://b.example'],
			token: 'abcdefghijklmnop1234',
			appUrl: 'https://a.example/engram',
			httpOnly: true,
		});
	});

	it('takes the token from ENGRAM_RELAY_TOKEN when --token is absent', () => {
		expect(parseRelayArgs([], { ENGRAM_RELAY_TOKEN: 'from-the-environment-1' }).token).toBe('from-the-environment-1');
		expect(
			parseRelayArgs(['--token', 'from-the-command-line'], {
				ENGRAM_RELAY_TOKEN: 'from-the-environment-1',
			}).token,
		).toBe('from-the-command-line');
	});

	it('names the option and the rule it breaks', () => {
		expect(() => parseRelayArgs(['--port', '70000'])).toThrow('--port "70000" must be an integer from 1 to 65535');
		expect(() => parseRelayArgs(['--port', '12a'])).toThrow('--port "12a" must be an integer from 1 to 65535');
		expect(() => parseRelayArgs(['--profile', 'mem0'])).toThrow('--profile "mem0" must be one of native, automem, aiakiv, codomyrmex, memory-mcp');
		expect(() => parseRelayArgs(['--token', 'short'])).toThrow("--token must be 16–256 characters of A–Z, a–z, 0–9, '.', '_', '~' or '-'");
		expect(() => parseRelayArgs([], { ENGRAM_RELAY_TOKEN: 'has spaces in it, no good' })).toThrow('ENGRAM_RELAY_TOKEN must be 16–256 characters');
		expect(() => parseRelayArgs(['--app-url', 'ftp://x'])).toThrow('--app-url "ftp://x" must be an http or https URL');
		// The pairing link hands the token to that page: never over plain http from another machine.
		expect(() => parseRelayArgs(['--app-url', 'http://engram.example'])).toThrow(
			'--app-url "http://engram.example" must use https unless the app runs on this machine',
		);
		expect(parseRelayArgs(['--app-url', 'http://localhost:5173/']).appUrl).toBe('http://localhost:5173');
		expect(() => parseRelayArgs(['--app-url', 'https://engram.example/?x=1'])).toThrow('with no user, password, query or fragment');
		expect(() => parseRelayArgs(['--app-url', 'https://engram.example/#relay=ws://evil'])).toThrow('with no user, password, query or fragment');
		expect(() => parseRelayArgs(['--nope'])).toThrow("Unknown option '--nope'");
	});
});

describe('LineReader', () => {
	it('splits lines across chunks, skips blank lines and strips CR', () => {
		const values: unknown[] = [];
		const bad: string[] = [];
		const r = new LineReader(
			(v) => values.push(v),
			(why) => bad.push(why),
		);
		r.push(Buffer.from('{"a":'));
		r.push(Buffer.from('1}\r\n\n[1,2]\n{"b"'));
		expect(values).toEqual([{ a: 1 }, [1, 2]]);
		r.push(Buffer.from(':2}\nnot json\n'));
		expect(values).toEqual([{ a: 1 }, [1, 2], { b: 2 }]);
		expect(bad).toEqual(['Parse error: a line on stdin is not JSON']);
	});

	it('keeps multi-byte characters split across chunks intact', () => {
		const values: unknown[] = [];
		const r = new LineReader(
			(v) => values.push(v),
			() => {},
		);
		const bytes = Buffer.from('{"t":"Zürich ☕"}\n');
		r.push(bytes.subarray(0, 9));
		r.push(bytes.subarray(9));
		expect(values).toEqual([{ t: 'Zürich ☕' }]);
	});

	it('refuses a line over the limit with the id of its request, in either usual key order, and reads the next line', () => {
		const values: unknown[] = [];
		const bad: [string, unknown][] = [];
		const r = new LineReader(
			(v) => values.push(v),
			(why, value) => bad.push([why, value]),
		);
		const filler = Buffer.alloc(MAX_LINE_BYTES, 'x');
		// The SDK's order (method first, id last), in several chunks, the newline in the last one.
		r.push(Buffer.from('{"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"'));
		r.push(filler);
		r.push(Buffer.from('"}},"jsonrpc":"2.0","id":42}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
		// The usual order, id first, the newline in the same chunk as everything.
		r.push(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"big \\"one\\"","method":"tools/call","params":{"x":"'), filler, Buffer.from('"}}\n')]));
		// A batch: no single id to answer.
		r.push(Buffer.concat([Buffer.from('[{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"'), filler, Buffer.from('"}}]\n')]));
		expect(bad.map(([why]) => why)).toEqual([TOO_LONG, TOO_LONG, TOO_LONG]);
		expect(bad.map(([, value]) => (value as { id?: unknown } | undefined)?.id)).toEqual([42, 'big "one"', undefined]);
		expect(values).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
	});

	it('finds the id of a line too long to read only where it is the request’s own', () => {
		const id = (head: string, tail: string) => idOfTooLong(Buffer.from(head), Buffer.from(tail));
		expect(id('{"method":"x","params":{"a":"', 'xx"},"jsonrpc":"2.0","id":5}\r')).toBe(5);
		expect(id('{ "jsonrpc": "2.0", "id": -3, "method": "x"', '')).toBe(-3);
		// A response (its id is the server's request), nested ids, other orders: nothing.
		expect(id('{"result":{"a":"', 'x"},"jsonrpc":"2.0","id":5}')).toBeUndefined();
		expect(id('{"method":"x","params":{"a":"', 'x","id":5}}')).toBeUndefined();
		expect(id('{"id":5,"jsonrpc":"2.0","method":"x"', '}')).toBeUndefined();
	});
});
