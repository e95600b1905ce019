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
/** Groups of digits separated by spaces or dashes, as people type card numbers ("4242 4242 4242 4242"). */
const GROUP_RUN = /(?<!\d)\d+(?:[ -]+\d+)*(?!\d)/g;
const REDACTED = '[card number redacted]';

/**
 * Every Luhn-valid run of 13–19 digits in a text: how a scan of logs, tables and
 * payloads finds a card number that should not be there.
 */
export function findCardNumbers(text: string): string[] {
  return [...text.matchAll(DIGIT_RUN)].map((m) => m[0]).filter(luhnValid);
}

/**
 * The text with every card number replaced, typed whole or in groups, also when
 * other numbers stand beside it ("4242 4242 4242 4242 12/30"): within a run of
 * groups, the longest stretch of whole groups that has 13–19 digits and passes
 * Luhn is cut, and the search goes on after it. For messages that may quote input.
 */
export function redactCardNumbers(text: string): string {
  return text.replace(GROUP_RUN, (run) => {
    const groups = [...run.matchAll(/\d+/g)];
    let out = '';
    let copied = 0;
    for (let i = 0; i < groups.length;) {
      let end = -1;
      let digits = '';
      for (let j = i; j < groups.length; j++) {
        digits += groups[j]![0];
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhnValid(digits)) end = j;
      }
      if (end < 0) {
        i += 1;
        continue;
      }
      out += run.slice(copied, groups[i]!.index) + REDACTED;
      copied = groups[end]!.index! + groups[end]![0].length;
      i = end + 1;
    }
    return out + run.slice(copied);
  });
}
