/** The relay envelope protocol: parsing, and the profile list shared with the relay. */
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../../../src/mcp/server';
import { FromTabSchema, RELAY_PROFILES, ToTabSchema, parseEnvelope } from '../../../../src/mcp/transports/relay-protocol';

describe('relay protocol', () => {
	it('offers exactly the profiles createMemoryServer knows (the relay validates --profile without importing the tools)', () => {
		expect([...RELAY_PROFILES].sort()).toEqual([...PROFILE_NAMES].sort());
	});

	it('parses envelopes and passes the JSON-RPC message through untouched', () => {
		const m = {
			jsonrpc: '2.0',
			id: 3,
			method: 'tools/call',
			params: { name: 'x', arguments: { deep: [1, { a: null }] } },
		};
		expect(parseEnvelope(ToTabSchema, JSON.stringify({ t: 'msg', sid: 's1', m }))).toEqual({
			t: 'msg',
			sid: 's1',
			m,
		});
		expect(parseEnvelope(FromTabSchema, JSON.stringify({ t: 'msg', sid: 's1', m, rel: 3 }))).toEqual({ t: 'msg', sid: 's1', m, rel: 3 });
	});

	it('returns an Error naming what is wrong, never throws', () => {
		expect(parseEnvelope(ToTabSchema, '{')).toEqual(new Error('relay envelope is not valid JSON'));
		expect((parseEnvelope(ToTabSchema, JSON.stringify({ t: 'open', session: { sid: 's', kind: 'stdio', profile: 'mem0' } })) as Error).message).toMatch(
			/^relay envelope: session\.profile /,
		);
		expect((parseEnvelope(FromTabSchema, JSON.stringify({ t: 'open' })) as Error).message).toMatch(/^relay envelope: t /);
	});
});
