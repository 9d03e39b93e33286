/**
 * A plain CSV (RFC 4180) as memory records: quoted fields with embedded commas, newlines and
 * doubled quotes, CRLF or LF, a byte-order mark, `,` `;` or tab as the separator (whichever the
 * header line has most of). The person picks the content, tags and date columns; tags are split on
 * `;`, `,` or `|`; every other column is kept in `metadata.csv`. One pass, no regexes over fields.
 */
import { IsoDateSchema } from '../core/schemas';
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

/** Parses CSV text; the first row is the header. Blank lines are skipped. */
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
		if (!(cells.length === 1 && cells[0].trim() === '')) rows.push({ line: rowLine, cells });
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
	return { header: head ? head.cells.map((h) => h.trim()) : [], rows: body, errors };
}

/** The columns the person chose (by header name); tags and date are optional. */
export interface CsvColumns {
	content: string;
	tags?: string;
	date?: string;
}

/** A column guessed from the header for each role. */
export function guessColumns(header: string[]): CsvColumns {
	const find = (re: RegExp) => header.find((h) => re.test(h.toLowerCase()));
	return {
		content: find(/^(content|text|memory|note|notes|body|message|fact)$/) ?? find(/content|text|memory|note|body/) ?? header[0] ?? '',
		tags: find(/^(tags?|labels?|categor(y|ies)|keywords?)$/),
		date: find(/^(date|created|created_at|timestamp|time|when)$/) ?? find(/date|created|time/),
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
	const [ci, ti, di] = [at(cols.content), at(cols.tags), at(cols.date)];
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
		if (ti >= 0 && cells[ti]?.trim()) record.tags = splitTags(cells[ti]);
		const date = di >= 0 ? (cells[di] ?? '').trim() : '';
		if (date) {
			const r = IsoDateSchema.safeParse(date);
			if (!r.success) {
				errors.push({ line, error: `${cols.date}: ${JSON.stringify(date.slice(0, 60))} ${r.error.issues[0].message}` });
				continue;
			}
			record.timestamp = date;
		}
		const rest: Record<string, string> = {};
		t.header.forEach((h, k) => {
			if (k !== ci && k !== ti && k !== di && cells[k] !== undefined && cells[k] !== '') rest[h || `column ${k + 1}`] = cells[k];
		});
		// Cells past the header's columns are kept too.
		for (let k = t.header.length; k < cells.length; k++) if (cells[k] !== '') rest[`column ${k + 1}`] = cells[k];
		if (Object.keys(rest).length) record.metadata = { csv: rest };
		records.push({ line, record });
	}
	return { records, errors };
}
