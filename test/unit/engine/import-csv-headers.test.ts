/**
 * A spreadsheet kept in another language: its columns are guessed from their names as the English
 * ones are. Before, a German "Notiz;Schlagwörter;Datum" file imported with no tags and every date
 * set to the moment of import, unless the person noticed and picked the columns by hand.
 */
import { describe, expect, it } from 'vitest';
import { csvRecords, guessColumns, parseCsv } from '../../../src/engine/import-csv';

describe('CSV header in another language', () => {
	it.each([
		[['Notiz', 'Schlagwörter', 'Datum', 'Titel'], { content: 'Notiz', tags: 'Schlagwörter', date: 'Datum', summary: 'Titel' }],
		[['Titre', 'Contenu', 'Étiquettes', 'Date'], { content: 'Contenu', tags: 'Étiquettes', date: 'Date', summary: 'Titre' }],
		[['Fecha', 'Nota', 'Etiquetas', 'Título'], { content: 'Nota', tags: 'Etiquetas', date: 'Fecha', summary: 'Título' }],
		[['Inhoud', 'Trefwoorden', 'Datum'], { content: 'Inhoud', tags: 'Trefwoorden', date: 'Datum', summary: undefined }],
	])('guesses %j', (header, expected) => {
		expect(guessColumns(header)).toEqual(expected);
	});

	it("reads a German spreadsheet's export (BOM, semicolons, a quoted line break) with its tags and dates", () => {
		const csv = '\ufeffNotiz;Schlagwörter;Datum;Quelle\r\n"Zahnarzt: Termin\r\nam Dienstag";gesundheit, termine;31.03.2024;Kalender\r\n';
		const table = parseCsv(csv);
		const { records, errors } = csvRecords(table, guessColumns(table.header));
		expect(errors).toEqual([]);
		expect(records.map((r) => [r.record.content, r.record.tags, r.record.timestamp, r.record.metadata])).toEqual([
			['Zahnarzt: Termin\r\nam Dienstag', ['gesundheit', 'termine'], '2024-03-31', { csv: { Quelle: 'Kalender' } }],
		]);
	});
});

describe('CSV header with blank and repeated names', () => {
	it('names a blank header by its place and a repeated one by its place too, so each column can be chosen', () => {
		const table = parseCsv('note,,note\nfirst,middle,second\n');
		expect(table.header).toEqual(['note', 'column 2', 'note (column 3)']);
		const { records } = csvRecords(table, { content: 'note (column 3)', summary: 'column 2' });
		expect(records.map((r) => [r.record.content, r.record.summary, r.record.metadata])).toEqual([['second', 'middle', { csv: { note: 'first' } }]]);
	});
});
