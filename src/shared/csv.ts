/**
 * CSV as RFC 4180 writes it: cells joined by commas, lines ended by CRLF, a cell holding a comma,
 * a quote or a line break quoted (its quotes doubled).
 */

/**
 * A text cell a spreadsheet must not read as a formula (CSV injection, OWASP): one that starts with
 * = + - @ (or a tab or carriage return) gets a leading '. Only for text that came from outside:
 * a decimal amount the service wrote (never negative where this is used) or a date needs no guard.
 */
export function textCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return quoted(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** A cell the service wrote itself (a decimal, an ISO 8601 time, a code): quoted only if it must be. */
export function quoted(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One line of cells, already made safe with textCell or quoted, with its CRLF. */
export const csvLine = (cells: string[]) => `${cells.join(',')}\r\n`;
