/**
 * Memory types from other tools come in lower or upper case ("decision", "EPISODIC"): import reads
 * them as Engram's own type instead of refusing the record (before: `memory.type: must be one of
 * Decision, …, episodic, … (got "decision")`). A type that is none of them is still refused.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, parseJsonl } from '../../../src/engine/import-formats';

describe('memory type in any letter case', () => {
	it('reads "decision" as Decision and "EPISODIC" as episodic', () => {
		const b = parseJsonl(
			'{"content":"a","type":"decision"}\n{"content":"b","type":"EPISODIC"}\n{"content":"c","type":" preference "}\n{"content":"d","type":"Insight"}',
		);
		expect(b.errors.list()).toEqual([]);
		expect(b.memories.map((m) => m.value.type)).toEqual(['Decision', 'episodic', 'Preference', 'Insight']);
		expect(parseJson('{"memories":[{"content":"x","type":"habit"}]}').memories[0].value.type).toBe('Habit');
	});

	it('still refuses a type that is not one, naming the field and the choices', () => {
		const b = parseJsonl('{"content":"a","type":"todo"}');
		expect(b.memories).toEqual([]);
		expect(b.errors.list()).toEqual([{ line: 1, error: expect.stringMatching(/^memory\.type: must be one of Decision, .* \(got "todo"\)$/) }]);
	});
});
