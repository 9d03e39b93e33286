import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityId, extractEntities, mergeEntities, normaliseEntityName } from '../../../src/core/entities';
import { wordsIn } from '../../../src/core/entities/names';
import type { EntityRef } from '../../../src/core/schemas';

const e = (name: string, type: string): EntityRef => ({ name, type });
/** The entities of one type, in order. */
const ofType = (text: string, type: string) => extractEntities(text).filter((x) => x.type === type);

describe('entities', () => {
	describe('extractEntities', () => {
		it('reads no name in the base64 of a data: URL (an image pasted into a note)', () => {
			const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="1400"><text>Hi</text></svg>').toString('base64');
			expect(extractEntities(`Notes by Alice Chen.\n\n![notice](data:image/svg+xml;base64,${svg})\n\nMore.`)).toEqual([
				{ name: 'Alice Chen', type: 'person' },
			]);
			const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
			expect(extractEntities(`Logo: <img src="data:image/png;base64,${png}"> from GitHub`)).toEqual([{ name: 'GitHub', type: 'tool' }]);
		});

		it('returns nothing for empty, punctuation-only and emoji-only text', () => {
			expect(extractEntities('')).toEqual([]);
			expect(extractEntities('... !!! ??? -- ;; () [] {}')).toEqual([]);
			expect(extractEntities('😀 🎉 👍🏽 🇯🇵')).toEqual([]);
			expect(extractEntities('   \n\t  ')).toEqual([]);
		});

		it('extracts @handles and #tags', () => {
			expect(extractEntities('ping @maya_chen and @dan.k about #infra and #q3-planning')).toEqual([
				e('@maya_chen', 'handle'),
				e('@dan.k', 'handle'),
				e('#infra', 'tag'),
				e('#q3-planning', 'tag'),
			]);
		});

		it('does not read e-mail addresses, C#, issue numbers or hex colours as handles or tags', () => {
			expect(extractEntities('mail maya@acme.com about C# issue #42, colour #ff0000')).toEqual([e('maya@acme.com', 'handle'), e('C#', 'tool')]);
		});

		it('reads an @scope/package name as a tool', () => {
			expect(extractEntities('install @modelcontextprotocol/sdk first')).toEqual([e('@modelcontextprotocol/sdk', 'tool')]);
		});

		it('extracts http, https, www and bare-domain URLs without trailing punctuation', () => {
			expect(extractEntities('See https://example.com/docs?a=1, http://x.org/a_(b) and www.foo.org. Also github.com/acme/engram.')).toEqual([
				e('https://example.com/docs?a=1', 'url'),
				e('http://x.org/a_(b)', 'url'),
				e('www.foo.org', 'url'),
				e('github.com/acme/engram', 'url'),
			]);
		});

		it("does not report a URL's path as a file path", () => {
			expect(extractEntities('read https://example.com/src/core/entities.ts now')).toEqual([e('https://example.com/src/core/entities.ts', 'url')]);
		});

		it('extracts relative, dotted, home, absolute and Windows paths and known file names', () => {
			const text =
				'Edit src/core/entities.ts, ./scripts/build.sh and ../a/b, then ~/dev/engram, /usr/bin/chromium, C:\\Users\\maya\\notes.txt, config.yaml and Dockerfile and .env.local';
			expect(ofType(text, 'file').map((x) => x.name)).toEqual([
				'src/core/entities.ts',
				'./scripts/build.sh',
				'../a/b',
				'~/dev/engram',
				'/usr/bin/chromium',
				'C:\\Users\\maya\\notes.txt',
				'config.yaml',
				'.env.local',
			]);
		});

		it('does not take and/or, TCP/IP, 24/7, dates or U.S.A for paths', () => {
			expect(ofType('and/or TCP/IP 24/7 on 2024/03/05 in the U.S.A today', 'file')).toEqual([]);
		});

		it('keeps library names with a dot as tools, not files', () => {
			expect(extractEntities('We use Node.js, Next.js and Three.js')).toEqual([e('Node.js', 'tool'), e('Next.js', 'tool'), e('Three.js', 'tool')]);
		});

		it('extracts camelCase, PascalCase, snake_case, SCREAMING_CASE, dotted paths, calls and backticked code', () => {
			const text = 'parseTimeQuery feeds MemoryError; recall_memory reads MAX_RESULTS via os.path.join(a, b), fetchAll() and `npm run build`.';
			expect(extractEntities(text)).toEqual([
				e('parseTimeQuery', 'identifier'),
				e('MemoryError', 'identifier'),
				e('recall_memory', 'identifier'),
				e('MAX_RESULTS', 'identifier'),
				e('os.path.join()', 'identifier'),
				e('fetchAll()', 'identifier'),
				e('npm run build', 'identifier'),
			]);
		});

		it('extracts kebab-case model, region and package names but not hyphenated words', () => {
			expect(extractEntities('Load all-MiniLM-L6-v2 or bge-m3 in eu-west-1; state-of-the-art since mid-2023, not COVID-19.')).toEqual([
				e('all-MiniLM-L6-v2', 'identifier'),
				e('bge-m3', 'identifier'),
				e('eu-west-1', 'identifier'),
				e('COVID-19', 'concept'),
			]);
		});

		it('keeps a known name that starts a longer known name whole', () => {
			expect(extractEntities('CI runs on GitHub Actions; the code lives on GitHub.')).toEqual([e('GitHub Actions', 'tool'), e('GitHub', 'tool')]);
		});

		it('keeps acronyms side by side but drops generic technical acronyms and quarters', () => {
			expect(extractEntities('The API URL for AWS MSK moved in Q3; check the CLI and SDK.')).toEqual([e('AWS MSK', 'tool')]);
		});

		it('does not take prose brackets or abbreviations for code', () => {
			expect(extractEntities('Bring the item(s) (see above), e.g. the list, i.e. all of it.')).toEqual([]);
		});

		it('extracts short quoted terms in straight, curly and single quotes', () => {
			expect(extractEntities('We call it "write-ahead log", the “golden path” and the \'strangler fig\' pattern.')).toEqual([
				e('write-ahead log', 'term'),
				e('golden path', 'term'),
				e('strangler fig', 'term'),
			]);
		});

		it('ignores quoted speech and apostrophes', () => {
			expect(extractEntities("He said \"I'll do it tomorrow\" and it's Dan's 'turn'.")).toEqual([e('Dan', 'person'), e('turn', 'term')]);
		});

		it('keeps a quoted name at its more specific type', () => {
			expect(extractEntities('She joined "Acme Corp" last year')).toEqual([e('Acme Corp', 'organisation')]);
		});

		it('extracts multi-word proper names', () => {
			expect(extractEntities('Maya Chen flew to New York to meet Acme Corp.')).toEqual([
				e('Maya Chen', 'person'),
				e('New York', 'place'),
				e('Acme Corp', 'organisation'),
			]);
		});

		it('types people by honorific, first name and context', () => {
			expect(extractEntities('Dr. Okafor and Mrs Alvarez met Priya. My friend Zed replied; Quill said yes.')).toEqual([
				e('Okafor', 'person'),
				e('Alvarez', 'person'),
				e('Priya', 'person'),
				e('Zed', 'person'),
				e('Quill', 'person'),
			]);
		});

		it('types places by gazetteer, suffix and context', () => {
			expect(extractEntities('We left Texas for Japan, walked Baker Street, climbed Mount Kosciuszko and moved to Zanzibar.')).toEqual([
				e('Texas', 'place'),
				e('Japan', 'place'),
				e('Baker Street', 'place'),
				e('Mount Kosciuszko', 'place'),
				e('Zanzibar', 'place'),
			]);
		});

		it('types organisations by suffix, prefix, gazetteer and context', () => {
			expect(extractEntities('Umbrella Labs, Initech LLC, the University of Oxford and Google compete; she works at Hooli.')).toEqual([
				e('Umbrella Labs', 'organisation'),
				e('Initech LLC', 'organisation'),
				e('University of Oxford', 'organisation'),
				e('Google', 'organisation'),
				e('Hooli', 'organisation'),
			]);
		});

		it('types tools from the gazetteer and projects from context', () => {
			expect(extractEntities('The Phoenix project runs on Kubernetes with PostgreSQL and Project Falcon uses Svelte.')).toEqual([
				e('Phoenix', 'project'),
				e('Kubernetes', 'tool'),
				e('PostgreSQL', 'tool'),
				e('Project Falcon', 'project'),
				e('Svelte', 'tool'),
			]);
		});

		it('falls back to concept for unknown proper names', () => {
			expect(extractEntities('We had coffee at Blue Harbor Cafe near the Kepler exhibit.')).toEqual([
				e('Blue Harbor Cafe', 'organisation'),
				e('Kepler', 'concept'),
			]);
			expect(extractEntities('The Zorblax initiative slipped.')).toEqual([e('Zorblax', 'concept')]);
		});

		it('skips capitalised sentence starters, pronouns, days and months', () => {
			expect(extractEntities('Yesterday I went out. Meeting moved to Monday. Deploy it in March! However, she agreed.')).toEqual([]);
		});

		it('drops a sentence-opening verb but keeps the name after it', () => {
			expect(extractEntities('Adopted Luna from the shelter. Visiting Kyoto next.')).toEqual([e('Luna', 'concept'), e('Kyoto', 'place')]);
		});

		it('keeps first names that are also months or modal verbs when a surname follows', () => {
			expect(extractEntities('We met May Chen and Will Smith in May.')).toEqual([e('May Chen', 'person'), e('Will Smith', 'person')]);
		});

		it('reads a first name that is also a city as a person unless a place cue says otherwise', () => {
			expect(extractEntities('Sofia said hi. Later we flew to Sofia.')).toEqual([e('Sofia', 'person')]);
			expect(extractEntities('We flew to Sofia.')).toEqual([e('Sofia', 'place')]);
		});

		it('reports "Maya" inside "Maya Chen" only once unless it also appears alone', () => {
			expect(extractEntities('Maya Chen called. Maya Chen left.')).toEqual([e('Maya Chen', 'person')]);
			expect(extractEntities('Maya Chen called. Later Maya left.')).toEqual([e('Maya Chen', 'person'), e('Maya', 'person')]);
		});

		it('merges Postgres and PostgreSQL into one tool entity', () => {
			expect(extractEntities('We moved from Postgres to MySQL and back to PostgreSQL; postgres wins.')).toEqual([
				e('PostgreSQL', 'tool'),
				e('MySQL', 'tool'),
			]);
		});

		it('maps common aliases to one tool or place', () => {
			expect(extractEntities('JS and TS on k8s in NYC')).toEqual([
				e('JavaScript', 'tool'),
				e('TypeScript', 'tool'),
				e('Kubernetes', 'tool'),
				e('New York', 'place'),
			]);
		});

		it('recognises distinctive tool names in lowercase but not tool names that are ordinary words', () => {
			expect(extractEntities('we run docker and kubernetes; go react to the spark of rust')).toEqual([e('Docker', 'tool'), e('Kubernetes', 'tool')]);
			expect(extractEntities('I write Go and Rust at work.')).toEqual([e('Go', 'tool'), e('Rust', 'tool')]);
			expect(extractEntities('Go ahead and ship it.')).toEqual([]);
		});

		it('splits a run of known names and keeps an unknown run whole', () => {
			expect(extractEntities('Stack: React Redux TypeScript on Paris France servers')).toEqual([
				e('React', 'tool'),
				e('Redux', 'tool'),
				e('TypeScript', 'tool'),
				e('Paris', 'place'),
				e('France', 'place'),
			]);
		});

		it('skips shouted phrases inside normal text but keeps short acronyms', () => {
			expect(extractEntities('I PASSED the exam!! NO WAY. My CPA license is next.')).toEqual([e('CPA', 'concept')]);
		});

		it('skips holidays, including possessive ones', () => {
			expect(extractEntities("Happy Memorial Day! See you on New Year's Eve and Mother's Day.")).toEqual([]);
		});

		it('reads capitalised family words alone as people and as titles before a name', () => {
			expect(extractEntities('Mom called, then Uncle Bob visited Grandma.')).toEqual([e('Mom', 'person'), e('Bob', 'person'), e('Grandma', 'person')]);
		});

		it('keeps a capitalised adjective that opens a name mid-sentence', () => {
			expect(extractEntities('We studied the New Deal and shopped at Bath & Body Works.')).toEqual([
				e('New Deal', 'concept'),
				e('Bath & Body Works', 'concept'),
			]);
		});

		it('reads a capitalised name that matches a lowercase-only tool as the name', () => {
			expect(extractEntities('The otter is called Pip.')).toEqual([e('Pip', 'concept')]);
			expect(extractEntities('Run `pip install` then pip freeze.')).toEqual([e('pip install', 'identifier')]);
		});

		it('types an unknown name after a locative preposition as a place, not a person', () => {
			expect(extractEntities('He is at his mom’s in Racine and I had a shift near Florianópolis.')).toEqual([
				e('Racine', 'place'),
				e('Florianópolis', 'place'),
			]);
		});

		it('treats a word after a number and a full stop as a sentence start', () => {
			expect(extractEntities('The exam is June 25. Studying every night.')).toEqual([]);
		});

		it('does not take demonyms, languages or acronyms with a verb after them for people', () => {
			expect(extractEntities('He played the Sicilian; MRI says torn meniscus; I speak English.')).toEqual([
				e('Sicilian', 'concept'),
				e('MRI', 'concept'),
				e('English', 'concept'),
			]);
		});

		it('ignores capitals in shouted text except known names', () => {
			expect(extractEntities('URGENT: FIX THE BUILD BEFORE THE DEMO, AWS IS DOWN')).toEqual([e('AWS', 'tool')]);
		});

		it('finds identifiers but no proper names inside fenced code', () => {
			const text = 'Fix this:\n```ts\nconst Result = await loadUserProfile(user_id);\nReturn Value\n```\nThanks Maya';
			expect(extractEntities(text)).toEqual([e('loadUserProfile()', 'identifier'), e('user_id', 'identifier'), e('Maya', 'person')]);
		});

		it('normalises NFKC forms so full-width names merge with ASCII ones', () => {
			expect(extractEntities('Ｐｙｔｈｏｎ and Python')).toEqual([e('Python', 'tool')]);
		});

		it('returns at most max entities, keeping the most mentioned, in order of appearance', () => {
			const text = 'Alpha Zed vs Bravo Zed. Charlie Zed vs Bravo Zed. Bravo Zed vs Charlie Zed.';
			expect(extractEntities(text, { max: 2 })).toEqual([e('Bravo Zed', 'concept'), e('Charlie Zed', 'person')]);
			expect(extractEntities(text, { max: 0 })).toEqual([]);
		});

		it('caps results at the schema limit of 100 and names at 200 characters', () => {
			const names = Array.from({ length: 300 }, (_, i) => `#tag${i}`).join(' ');
			expect(extractEntities(names, { max: 1000 })).toHaveLength(100);
			const longUrl = `https://example.com/${'a'.repeat(150)}?q=${'b'.repeat(100)}`;
			expect(extractEntities(longUrl)).toEqual([e(`https://example.com/${'a'.repeat(150)}`, 'url')]);
		});

		it('completes on a 50,000-character text within the limits', () => {
			const chunk = 'Maya Chen moved the API from Postgres to DynamoDB; see src/core/x.ts, https://example.com/a, #infra, @dan and parseQuery(). ';
			const text = chunk.repeat(Math.ceil(50_000 / chunk.length)).slice(0, 50_000);
			const out = extractEntities(text);
			expect(out).toEqual([
				e('Maya Chen', 'person'),
				e('PostgreSQL', 'tool'),
				e('DynamoDB', 'tool'),
				e('src/core/x.ts', 'file'),
				e('https://example.com/a', 'url'),
				e('#infra', 'tag'),
				e('@dan', 'handle'),
				e('parseQuery()', 'identifier'),
			]);
		});

		it('completes on pathological 50,000-character inputs', () => {
			expect(extractEntities('The '.repeat(12_500))).toEqual([]);
			expect(extractEntities('a.'.repeat(25_000))).toEqual([]);
			expect(extractEntities('a/'.repeat(25_000))).toEqual([]);
			expect(extractEntities('`a'.repeat(25_000))).toEqual([e('a', 'identifier')]);
			expect(extractEntities(`http://${'a'.repeat(50_000)}`)).toEqual([]);
		});

		it('drops runs of more than eight capitalised words as headings', () => {
			expect(extractEntities('Notes On The Big Quarterly Planning Offsite In Lisbon Last Spring')).toEqual([]);
			expect(extractEntities('We toured Rocky Mountain National Park.')).toEqual([e('Rocky Mountain National Park', 'place')]);
		});

		it('is deterministic', () => {
			const text = 'Maya Chen uses React at Acme Corp in Berlin; see #notes and ./todo.md';
			expect(extractEntities(text)).toEqual(extractEntities(text));
		});

		it('never throws, stays within limits and never repeats an entity (property)', () => {
			const alphabet = 'aAbBmMpPzZ @#./\\_-"\'`()\n.:,éÉ😀0123456789';
			fc.assert(
				fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 300 }), fc.integer({ min: 0, max: 20 }), (text, max) => {
					const out = extractEntities(text, { max });
					expect(out.length).toBeLessThanOrEqual(max);
					for (const ref of out) {
						expect(ref.name.trim().length).toBeGreaterThan(0);
						expect(ref.name.length).toBeLessThanOrEqual(200);
					}
					expect(mergeEntities(out)).toEqual(out);
				}),
				{ numRuns: 500 },
			);
		});
		it('only reports names written in the text, or the canonical form of a known name (property)', () => {
			const words = [
				'Maya',
				'Chen',
				'met',
				'in',
				'New',
				'York',
				'Postgres',
				'k8s',
				'src/a.ts',
				'@dan',
				'#ops',
				'fooBar',
				'run()',
				'"big idea"',
				'Acme',
				'Corp',
				'the',
				'.',
				',',
				'https://x.io/a',
				'I',
				'Dr.',
				'Okafor',
				'said',
			];
			fc.assert(
				fc.property(fc.array(fc.constantFrom(...words), { maxLength: 25 }), (parts) => {
					const text = parts.join(' ');
					for (const ref of extractEntities(text)) {
						const written = ref.name.replace(/\(\)$/, '');
						const canonical = ['tool', 'place', 'organisation'].includes(ref.type);
						if (!canonical) expect(text).toContain(written);
					}
				}),
				{ numRuns: 500 },
			);
		});
	});

	describe('normaliseEntityName', () => {
		it('applies NFKC, lowercases, trims quotes and punctuation and collapses spaces', () => {
			expect(normaliseEntityName('  “Ｍａｙａ   Chen”. ')).toBe('maya chen');
			expect(normaliseEntityName('(config.yaml),')).toBe('config.yaml');
		});

		it("strips a possessive 's and a leading @ or #", () => {
			expect(normaliseEntityName("Maya's")).toBe('maya');
			expect(normaliseEntityName('Maya’s')).toBe('maya');
			expect(normaliseEntityName('@maya_chen')).toBe('maya_chen');
			expect(normaliseEntityName('#Infra')).toBe('infra');
		});

		it('applies aliases for tools, places and untyped names only', () => {
			expect(normaliseEntityName('Postgres', 'tool')).toBe('postgresql');
			expect(normaliseEntityName('k8s')).toBe('kubernetes');
			expect(normaliseEntityName('NYC', 'place')).toBe('new york');
			expect(normaliseEntityName('JS', 'person')).toBe('js');
		});

		it('keeps leading dots of dotfiles and symbols of tool names', () => {
			expect(normaliseEntityName('.env', 'file')).toBe('.env');
			expect(normaliseEntityName('C++', 'tool')).toBe('c++');
			expect(normaliseEntityName('C#', 'tool')).toBe('c#');
		});

		it('returns an empty string for punctuation-only names', () => {
			expect(normaliseEntityName('"..."')).toBe('');
		});
	});

	describe('entityId', () => {
		it('joins the type and the normalised name', () => {
			expect(entityId(e('PostgreSQL', 'tool'))).toBe('tool:postgresql');
			expect(entityId(e('Postgres', 'tool'))).toBe('tool:postgresql');
			expect(entityId(e("Maya Chen's", 'Person'))).toBe('person:maya chen');
			expect(entityId(e('https://Example.com/', 'url'))).toBe('url:https://example.com');
		});
	});

	describe('mergeEntities', () => {
		it('returns an empty list for no refs', () => {
			expect(mergeEntities([])).toEqual([]);
		});

		it('keeps the most specific type and the best display form', () => {
			expect(mergeEntities([e('postgres', 'concept'), e('Postgres', 'tool'), e('postgresql', 'term')])).toEqual([e('PostgreSQL', 'tool')]);
			expect(mergeEntities([e('maya chen', 'term'), e('Maya Chen', 'person'), e('MAYA CHEN', 'person')])).toEqual([e('Maya Chen', 'person')]);
		});

		it('prefers a named type over file, url, handle, tag and identifier, and those over term and concept', () => {
			expect(mergeEntities([e('#react', 'tag'), e('React', 'tool')])).toEqual([e('React', 'tool')]);
			expect(mergeEntities([e('Zed', 'concept'), e('@zed', 'handle')])).toEqual([e('@zed', 'handle')]);
			expect(mergeEntities([e('"Zed"', 'term'), e('Zed', 'concept')])).toEqual([e('"Zed"', 'term')]);
		});

		it('keeps the first type on a tie and order of first appearance', () => {
			expect(mergeEntities([e('Georgia', 'place'), e('Maya', 'person'), e('Georgia', 'person'), e('maya', 'person')])).toEqual([
				e('Georgia', 'place'),
				e('Maya', 'person'),
			]);
		});

		it('drops names that normalise to nothing', () => {
			expect(mergeEntities([e('...', 'concept'), e('Zed', 'concept')])).toEqual([e('Zed', 'concept')]);
		});

		it('keeps caller-given custom types', () => {
			expect(mergeEntities([e('Launch', 'event'), e('launch', 'concept')])).toEqual([e('Launch', 'event')]);
		});

		it('yields one entity per normalised name, each name from the input (property)', () => {
			const names = ['Postgres', 'postgresql', 'PostgreSQL', 'Maya', 'maya', "Maya's", '@maya', '#maya', 'NYC', 'New York', 'k8s', 'Kubernetes'];
			const types = ['person', 'tool', 'place', 'concept', 'term', 'tag', 'handle'];
			const ref = fc.record({ name: fc.constantFrom(...names), type: fc.constantFrom(...types) });
			fc.assert(
				fc.property(fc.array(ref, { maxLength: 20 }), (refs) => {
					const out = mergeEntities(refs);
					const key = (r: EntityRef) => normaliseEntityName(normaliseEntityName(r.name, r.type));
					// Naive reference: the distinct keys of the input, in first-seen order.
					const expected = [...new Set(refs.map(key))];
					expect(out.map(key)).toEqual(expected);
					expect(mergeEntities(out)).toEqual(out);
					for (const r of out) expect(refs.some((x) => x.type === r.type)).toBe(true);
				}),
				{ numRuns: 300 },
			);
		});
	});
});

describe('names that are also Object.prototype keys', () => {
	it('normalises "constructor", "toString" and "__proto__" as plain names', () => {
		for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) expect(normaliseEntityName(name)).toBe(name.toLowerCase());
		expect(normaliseEntityName('__proto__')).toBe('proto'); // edge underscores trimmed, as for any name
	});

	it('ranks a caller-given type named like an Object.prototype key as any unknown type', () => {
		for (const type of ['constructor', 'toString', 'valueOf', '__proto__']) {
			// A known specific type outranks an unknown one, whichever comes first.
			expect(
				mergeEntities([
					{ name: 'maya', type },
					{ name: 'Maya', type: 'person' },
				]),
			).toEqual([{ name: 'Maya', type: 'person' }]);
			// An unknown type outranks "concept", as 'custom' does.
			expect(
				mergeEntities([
					{ name: 'Kepler', type: 'concept' },
					{ name: 'Kepler', type },
				]),
			).toEqual([{ name: 'Kepler', type }]);
		}
	});
});

describe("wordsIn (the proper-name pass's words)", () => {
	it('finds in ASCII text (scanned by hand) exactly the words and offsets the word pattern does', () => {
		const byPattern = (text: string) => [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’&-][\p{L}\p{N}\p{M}]+)*/gu)].flatMap((m) => [m.index, m[0]]);
		const texts = ["Bath & Body Works' AT&T co-op -x x- O'Neil’s rock-'n'-roll", 'Dvořák in Zürich', 'e\u0301clair', 'a\tb\nc'];
		fc.assert(
			fc.property(fc.array(fc.constantFrom(..."aZ9 '’&-._\n".split('')), { maxLength: 16 }), (cs) => {
				const t = cs.join('');
				expect(wordsIn(t), JSON.stringify(t)).toEqual(byPattern(t));
			}),
			{ numRuns: 3000 },
		);
		for (const t of texts) expect(wordsIn(t), t).toEqual(byPattern(t));
	});
});
