/**
 * Finding card numbers in text: the Luhn check, and a scan for 13–19 digit
 * Luhn-valid runs. Shared by the card rules, the log serializer and the GraphQL
 * error formatter (which scrub any card number from what they write), and by the
 * tests that scan logs, tables and payloads for one that should not be there.
 */

/** The Luhn (mod 10) check every issued card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A maximal run of 13–19 digits. */
const DIGIT_RUN = /(?<!\d)\d{13,19}(?!\d)/g;
/** The same, or grouped by single spaces or dashes as people type card numbers ("4242 4242 4242 4242"). */
const GROUPED_RUN = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

const isCardNumber = (run: string) => luhnValid(run.replace(/[ -]/g, ''));

/**
 * Every Luhn-valid run of 13–19 digits in a text: how a scan of logs, tables and
 * payloads finds a card number that should not be there.
 */
export function findCardNumbers(text: string): string[] {
  return [...text.matchAll(DIGIT_RUN)].map((m) => m[0]).filter(isCardNumber);
}

/** The text with every Luhn-valid 13–19 digit run, grouped or not, replaced: for messages that may quote input. */
export function redactCardNumbers(text: string): string {
  return text.replace(GROUPED_RUN, (run) => (isCardNumber(run) ? '[card number redacted]' : run));
}
