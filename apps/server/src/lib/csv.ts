import { stringify } from 'csv-stringify/sync';

/** A cell: text (made safe for spreadsheets), or a number we produced (written as it is). */
export type CsvCell = string | number | null;

/**
 * The characters a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): a cell
 * `=HYPERLINK(…)` or `@SUM(…)` in a name the customer chose would run when the file is opened.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell as a spreadsheet shows it and never runs it: a leading apostrophe where it would
 * start a formula. Only text is escaped: numbers are ours (a negative credit is a refund, not a
 * formula), and escaping them would turn them into text.
 */
export function spreadsheetSafe(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A CSV file (RFC 4180: comma-separated, CRLF lines, quoted where a cell holds a comma, a quote
 * or a line break) of a header and rows, every text cell made spreadsheet-safe. It starts with a
 * UTF-8 byte-order mark: without it Excel reads the file in the system's code page and garbles
 * names that are not ASCII. Shared by the usage export and the invoices' exports.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return stringify([header as string[], ...(rows as CsvCell[][])], {
    bom: true,
    record_delimiter: 'windows',
    cast: { string: (value) => spreadsheetSafe(value), number: (value) => String(value) },
  });
}
