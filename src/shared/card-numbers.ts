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
 * A card number as people write one in text: 13–19 digits whole, or in the usual groups
 * with single spaces or dashes (4-4-4-4 and a last group of up to 3, American Express
 * 4-6-5, Diners 4-6-4). Other runs of groups are not joined: `ORD-2026-1125-…` is a
 * reference, not a card.
 */
const WRITTEN_CARD = /(?<!\d)(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?|\d{4}([ -])\d{6}\2\d{4,5})(?!\d)/g;
/** The first digit of the card networks' numbers (Mastercard 2 and 5, Amex, Diners and JCB 3, Visa 4, Maestro and Verve 5 and 6, Discover and UnionPay 6). */
const CARD_NETWORK_DIGIT = /^[2-6]/;

/**
 * Whether a text holds a card number: written whole or in its usual groups (WRITTEN_CARD),
 * with a card network's first digit, passing Luhn. How stored free text refuses one.
 * Narrower than redactCardNumbers on purpose: refusing input must not catch a merchant's
 * timestamped references (`1764…` is a time in milliseconds, not a card).
 */
export function containsCardNumber(text: string): boolean {
  if (text.length < 13) return false;
  for (const [written] of text.matchAll(WRITTEN_CARD)) {
    const digits = written.replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && CARD_NETWORK_DIGIT.test(digits) && luhnValid(digits)) return true;
  }
  return false;
}

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
