/**
 * A plain CSV (RFC 4180) as memory records: quoted fields with embedded commas, newlines and
 * doubled quotes, CRLF or LF, a byte-order mark, `,` `;` or tab as the separator (whichever the
 * header line has most of). The person picks the content, summary (title), tags and date columns; tags are split on
 * `;`, `,` or `|`; dates are read in the forms spreadsheets write (`readCsvDate`); every other
 * column is kept in `metadata.csv`. One pass, no regexes over fields.
 */
import { IsoDateSchema, LIMITS } from '../core/schemas';
import { MONTHS, monthIndex } from '../core/time/vocabulary';
import { withoutBom } from '../core/text';

/** One CSV row and the 1-based line it starts on. */
export interface CsvRow {
	line: number;
	cells: string[];
}

export interface CsvTable {
	header: string[];
	rows: CsvRow[];
	/** A quote never closed, with the line it opened on. */
	errors: { line: number; error: string }[];
}

/** The separator the header line uses most (outside quotes): `,` by default. */
function separatorOf(text: string): string {
	const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') quoted = !quoted;
		else if (!quoted && (c === '\n' || c === '\r')) break;
		else if (!quoted && c in counts) counts[c]++;
	}
	const [best, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
	return n > 0 ? best : ',';
}

/** Parses CSV text; the first row is the header. Blank lines, and rows whose every cell is blank, are skipped. */
export function parseCsv(input: string): CsvTable {
	const text = withoutBom(input);
	const sep = separatorOf(text);
	const rows: CsvRow[] = [];
	const errors: CsvTable['errors'] = [];
	let cells: string[] = [];
	let field = '';
	let line = 1;
	let rowLine = 1;
	let quotedAt = 0;
	let i = 0;
	const endRow = () => {
		cells.push(field);
		// A row of empty cells (",,," — a spreadsheet's trailing rows) holds nothing, like a blank line.
		if (cells.some((cell) => cell.trim() !== '')) rows.push({ line: rowLine, cells });
		cells = [];
		field = '';
	};
	while (i < text.length) {
		const c = text[i];
		if (c === '"' && field === '' && quotedAt === 0) {
			// A quoted field: up to the next lone quote; "" is a quote.
			quotedAt = line;
			i++;
			let closed = false;
			while (i < text.length) {
				const d = text[i];
				if (d === '"') {
					if (text[i + 1] === '"') {
						field += '"';
						i += 2;
						continue;
					}
					i++;
					closed = true;
					break;
				}
				if (d === '\n') line++;
				field += d;
				i++;
			}
			if (!closed) {
				errors.push({ line: quotedAt, error: `a quote opened on line ${quotedAt} is never closed, so nothing from line ${quotedAt} on was read` });
				field = '';
				cells = [];
				break;
			}
			quotedAt = 0;
			continue;
		}
		if (c === sep) {
			cells.push(field);
			field = '';
			i++;
		} else if (c === '\r' || c === '\n') {
			endRow();
			i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
			line++;
			rowLine = line;
		} else {
			field += c;
			i++;
		}
	}
	if (field !== '' || cells.length) endRow();
	const [head, ...body] = rows;
	return { header: head ? columnNames(head.cells) : [], rows: body, errors };
}

/**
 * Header cells as column names, each one a person can pick and no two alike: a blank one is
 * "column 3" (its metadata key already was), a repeated one "note (column 4)". Picked by a blank
 * name, a column could not be chosen (it was "none") and was shown as the title column when none
 * was; picked by a repeated name, the first of the two was taken.
 */
function columnNames(cells: string[]): string[] {
	const taken = new Set<string>();
	return cells.map((cell, k) => {
		let name = cell.trim() || `column ${k + 1}`;
		if (taken.has(name)) name = `${name} (column ${k + 1})`;
		taken.add(name);
		return name;
	});
}

/** The columns the person chose (by header name); tags and date are optional. */
export interface CsvColumns {
	content: string;
	/** A title column: the memory's summary (a cell over the summary limit stays in metadata). */
	summary?: string;
	tags?: string;
	date?: string;
	/** How to read dates like 05/07/2023: month first (US) or day first; by default as the column shows (a part over 12). */
	dateOrder?: DateOrder;
}

/** Month first (05/07/2023 is May 7) or day first (5 July). */
export type DateOrder = 'mdy' | 'dmy';

/** A month name or its abbreviation ("Sept" too), as its number 1–12, or 0 ("Mayo" is not May). */
function monthNumber(word: string): number {
	const w = word.toLowerCase().replace(/\.$/, '');
	const i = monthIndex(w);
	return i >= 0 && (MONTHS[i].startsWith(w) || w === 'sept') ? i + 1 : 0;
}
/** An optional time after a date: "14:30", "2:30 PM", "14:30:05". */
const TIME = String.raw`(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?)?`;
const NUMERIC = new RegExp(String.raw`^(\d{1,2})([./-])(\d{1,2})\2(\d{4})${TIME}$`, 'i');
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})[./](\d{1,2})[./](\d{1,2})${TIME}$`, 'i');
const DAY_MONTH = new RegExp(String.raw`^(?:[a-z]{3,9},?\s+)?(\d{1,2})(?:st|nd|rd|th)?[\s-]+([a-z]{3,9}\.?)[\s-,]+(\d{4})${TIME}$`, 'i');
const MONTH_DAY = new RegExp(String.raw`^(?:[a-z]{3,9},?\s+)?([a-z]{3,9}\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME}$`, 'i');

/** The order this browser's language writes a date's month and day in (en-US: month first). */
export function localDateOrder(locale?: string): DateOrder {
	const parts = new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric' }).formatToParts(new Date(2023, 4, 7));
	return parts.findIndex((p) => p.type === 'month') < parts.findIndex((p) => p.type === 'day') ? 'mdy' : 'dmy';
}

/** The two leading numbers of a slashed or dashed date ("05/07/2023"), where the order matters. */
function ambiguousParts(cell: string): [number, number] | undefined {
	const m = NUMERIC.exec(cell.trim());
	return m && m[2] !== '.' ? [Number(m[1]), Number(m[3])] : undefined;
}

/**
 * The date order a column's values show: day first if one has a first part over 12 (25/12/2023),
 * month first if one has a second part over 12, undefined when none says (or they disagree).
 */
export function dateOrderOf(t: CsvTable, column: string | undefined): DateOrder | undefined {
	const i = column ? t.header.indexOf(column) : -1;
	if (i < 0) return undefined;
	let dmy = false;
	let mdy = false;
	for (const { cells } of t.rows) {
		const p = ambiguousParts(cells[i] ?? '');
		if (p?.[0] && p[0] > 12) dmy = true;
		if (p?.[1] && p[1] > 12) mdy = true;
	}
	return dmy === mdy ? undefined : dmy ? 'dmy' : 'mdy';
}

/** Whether a column holds dates like 05/07/2023, which read differently month first and day first. */
export function hasAmbiguousDates(t: CsvTable, column: string | undefined): boolean {
	const i = column ? t.header.indexOf(column) : -1;
	return i >= 0 && t.rows.some(({ cells }) => ambiguousParts(cells[i] ?? '') !== undefined);
}

/**
 * A date cell as an ISO 8601 date or local date-time, or the rule it breaks. Read: ISO 8601;
 * 2023/05/07 and 2023.05.07; 7.5.2023 (dots: day first); 05/07/2023 and 05-07-2023 in `order`;
 * "7 May 2023", "May 7, 2023", "Sun, 07 May 2023" (month names in English); each with an optional
 * time ("14:30", "2:30 PM"); Unix time in seconds (10 digits) or milliseconds (13).
 */
export function readCsvDate(cell: string, order: DateOrder | undefined): { ok: string } | { error: string } {
	const c = cell.trim();
	if (IsoDateSchema.safeParse(c).success) return { ok: c };
	const iso = (y: string | number, mo: number, d: number, m: RegExpExecArray, t: number): { ok: string } | { error: string } => {
		let out = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
		if (m[t] !== undefined) {
			let h = Number(m[t]);
			const ap = m[t + 3]?.toLowerCase()[0];
			if (ap && (h < 1 || h > 12)) return { error: `${JSON.stringify(c)}: no such time` };
			if (ap) h = (h % 12) + (ap === 'p' ? 12 : 0);
			out += `T${String(h).padStart(2, '0')}:${m[t + 1]}:${m[t + 2] ?? '00'}`;
		}
		const r = IsoDateSchema.safeParse(out);
		return r.success ? { ok: out } : { error: `${JSON.stringify(c)}: no such ${r.error.issues[0].message.includes('no such time') ? 'time' : 'day'}` };
	};
	let m = YEAR_FIRST.exec(c);
	if (m) return iso(m[1], Number(m[2]), Number(m[3]), m, 4);
	m = NUMERIC.exec(c);
	if (m) {
		const [a, b] = [Number(m[1]), Number(m[3])];
		const o: DateOrder | undefined = m[2] === '.' ? 'dmy' : a > 12 ? 'dmy' : b > 12 ? 'mdy' : order;
		if (!o) return { error: `${JSON.stringify(c)} can be read month first or day first: choose the date order` };
		return o === 'dmy' ? iso(m[4], b, a, m, 5) : iso(m[4], a, b, m, 5);
	}
	m = DAY_MONTH.exec(c);
	if (m && monthNumber(m[2])) return iso(m[3], monthNumber(m[2]), Number(m[1]), m, 4);
	m = MONTH_DAY.exec(c);
	if (m && monthNumber(m[1])) return iso(m[3], monthNumber(m[1]), Number(m[2]), m, 4);
	if (/^\d{10}$|^\d{13}$/.test(c)) {
		const ms = c.length === 10 ? Number(c) * 1000 : Number(c);
		return { ok: new Date(ms).toISOString() };
	}
	return {
		error: `${JSON.stringify(c.slice(0, 60))} is not a date Engram reads: write it as 2024-03-01 (or 2024-03-01T09:30), 1 March 2024, March 1, 2024, 01.03.2024, 03/01/2024 or Unix time`,
	};
}

/**
 * A column guessed from the header for each role, in English and in the languages spreadsheets are
 * often kept in (German, French, Spanish, Portuguese, Italian, Dutch): a German "Datum" column left
 * unguessed made every row's date the moment of import.
 */
export function guessColumns(header: string[]): CsvColumns {
	const find = (re: RegExp) => header.find((h) => re.test(h.trim().toLowerCase()));
	return {
		content:
			find(
				/^(content|text|memory|note|notes|body|message|fact|inhalt|notiz|notizen|nachricht|beschreibung|contenu|texte|contenido|texto|nota|notas|mensaje|conteúdo|testo|messaggio|inhoud|notitie|notities|bericht)$/,
			) ??
			find(/content|text|memory|note|body|inhalt|notiz|contenu|contenido|conteúdo|inhoud/) ??
			header[0] ??
			'',
		summary: find(/^(title|summary|subject|headline|heading|titel|betreff|überschrift|titre|sujet|título|titulo|asunto|assunto|titolo|oggetto|onderwerp)$/),
		tags: find(
			/^(tags?|labels?|categor(y|ies)|keywords?|schlagw(ö|oe)rter|schlagworte|stichw(ö|oe)rter|stichworte|etiketten?|kategorien?|étiquettes?|mots[- ]clés|catégories?|etiquetas?|categor(í|i)as?|palabras clave|etichette|categorie|trefwoorden)$/,
		),
		date:
			find(/^(date|created|created_at|timestamp|time|when|datum|erstellt|zeit|zeitpunkt|créé|créé le|fecha|creado|criado|creato|aangemaakt)$/) ??
			find(/date|created|time|datum|fecha/),
	};
}

/** Splits a tags cell on `;`, `,` or `|`. */
export function splitTags(cell: string): string[] {
	return [
		...new Set(
			cell
				.split(/[;,|]/)
				.map((t) => t.trim())
				.filter((t) => t !== ''),
		),
	];
}

/**
 * The memory records of a table: content from its column, tags split, the date as the memory's
 * time (checked by the import, which names the column and the rule), the other columns in
 * `metadata.csv`. A row without content is refused naming the column; nothing is dropped silently.
 */
export function csvRecords(
	t: CsvTable,
	cols: CsvColumns,
): { records: { line: number; record: Record<string, unknown> }[]; errors: { line: number; error: string }[] } {
	const at = (name: string | undefined) => (name ? t.header.indexOf(name) : -1);
	const [ci, ti, di, si] = [at(cols.content), at(cols.tags), at(cols.date), at(cols.summary)];
	const order = cols.dateOrder ?? dateOrderOf(t, cols.date);
	const errors = [...t.errors];
	const records: { line: number; record: Record<string, unknown> }[] = [];
	if (ci < 0) return { records, errors: [...errors, { line: 1, error: `content: there is no column "${cols.content}"` }] };
	for (const { line, cells } of t.rows) {
		// The content is kept exactly as the cell has it (spaces and line breaks included).
		const content = cells[ci] ?? '';
		if (content.trim() === '') {
			errors.push({ line, error: `${cols.content}: the content column is ${ci < cells.length ? 'empty' : 'missing'} in this row` });
			continue;
		}
		const record: Record<string, unknown> = { content };
		const summary = si >= 0 && si !== ci ? (cells[si] ?? '').trim() : '';
		const asSummary = summary !== '' && summary.length <= LIMITS.summaryChars;
		if (asSummary) record.summary = summary;
		if (ti >= 0 && cells[ti]?.trim()) record.tags = splitTags(cells[ti]);
		const date = di >= 0 ? (cells[di] ?? '').trim() : '';
		if (date) {
			const r = readCsvDate(date, order);
			if ('error' in r) {
				errors.push({ line, error: `${cols.date}: ${r.error}` });
				continue;
			}
			record.timestamp = r.ok;
		}
		const rest: Record<string, string> = {};
		t.header.forEach((h, k) => {
			if (k !== ci && k !== ti && k !== di && !(k === si && asSummary) && cells[k] !== undefined && cells[k] !== '') rest[h] = cells[k];
		});
		// Cells past the header's columns are kept too.
		for (let k = t.header.length; k < cells.length; k++) if (cells[k] !== '') rest[`column ${k + 1}`] = cells[k];
		if (Object.keys(rest).length) record.metadata = { csv: rest };
		records.push({ line, record });
	}
	return { records, errors };
}
