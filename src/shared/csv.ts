/**
 * CSV as RFC 4180 writes it: cells joined by commas, lines ended by CRLF, a cell holding a comma,
 * a quote or a line break quoted (its quotes doubled).
 */

/**
 * A spreadsheet reads a cell starting with = + - @, a tab or a carriage return as a formula (OWASP,
 * CSV injection). Where it may start a new cell inside a text: at its start, and after any separator a
 * reader might split on. A file opened with `;` as the separator (Excel's default in French, German,
 * Spanish, Italian and Dutch locales) does not see our commas' quoting, so `Ann;=2+3` would give a
 * cell `=2+3`; a tab-separated reading, the same after a tab. A piece that (after spaces or quotes)
 * starts a formula gets a `'` at its start, as the whole cell does.
 */
const PIECE_STARTING_A_FORMULA = /([,;\t\r\n])(?=[\s"']*[=+\-@\t\r])/g;
const TEXT_STARTING_A_FORMULA = /^(?=[\s"']*[=+\-@\t\r])/;
/** A text cell holding any of these is quoted: separators of any locale, quotes, line breaks, and anything a formula starts with. */
const QUOTE_TEXT = /[",;\n\r\t=+\-@]/;

/**
 * A text cell a spreadsheet must not read as a formula (CSV injection, OWASP), whatever separator
 * it is opened with: the text and every `,`/`;`/tab-separated piece of it that starts (after spaces
 * or quotes) with = + - @, a tab or a carriage return get a leading `'`, and the cell is quoted
 * when it holds a separator, a quote, a line break or any formula character. Only for text that
 * came from outside: an amount the service wrote (a decimal such as -5.00) stays a bare number a
 * spreadsheet reads as a number, and a date or a code needs no guard.
 */
export function textCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  // The pieces first, then the start (which may be a separator itself: a tab).
  const text = value.replace(PIECE_STARTING_A_FORMULA, "$1'").replace(TEXT_STARTING_A_FORMULA, "'");
  return QUOTE_TEXT.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell the service wrote itself (a decimal, an ISO 8601 time, a code): quoted only if it must be. */
export function quoted(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One line of cells, already made safe with textCell or quoted, with its CRLF. */
export const csvLine = (cells: string[]) => `${cells.join(',')}\r\n`;
