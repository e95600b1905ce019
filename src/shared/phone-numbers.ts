import { AppError } from './errors';
import plansFile from './data/numbering-plans.json';

/**
 * One rule for every phone number the service takes: a customer's `phone_number` and a mobile
 * money `account_number` (CONTRACT §6a). It is kept as the national significant number, digits
 * only, without the dial code and without the trunk prefix (`712345678`); the `dial_code` beside
 * it carries the country. What can be read one way only is normalized to that form: separators
 * (spaces, dashes, dots, parentheses) go, and so do a leading `+` and dial code, the dial code's
 * digits without the `+`, and a leading trunk prefix (`+254 712 345 678`, `254712345678` and
 * `0712345678` are all `712345678`). Anything else is refused, naming the form.
 *
 * The dial code's digits without a `+` are removed only when what remains has a length the
 * country's numbers have: a South African `271234567` (area code 27) stays as it is, while
 * `27271234567` is the same number with the dial code. The plans are checked at start so that
 * this reading is never ambiguous (no country has numbers of both n and n + the dial code's
 * length digits). A country whose numbers begin with a 0 that belongs to them (Côte d'Ivoire's
 * `07…`) has no trunk prefix, and the 0 stays.
 */

export interface NumberingPlan {
  /** The dial code, with its plus sign. */
  dialCode: string;
  /** Its digits (254 for +254). */
  callingCode: string;
  /** Dialled before a national number at home (`0`); null where numbers have none. */
  trunkPrefix: string | null;
  /** The lengths a national significant number has. */
  lengths: readonly number[];
  /** A mobile number of the country, for messages and documentation. */
  example: string;
}

type NationalNumber = { ok: true; number: string } | { ok: false; problem: 'not_digits' | 'other_country' | 'length' };

const SEPARATORS = /[\s().-]/g;
const DIGITS = /^\d+$/;

/** The national significant number `input` stands for under `plan`, or why it stands for none (pure). */
export function nationalNumber(input: string, plan: NumberingPlan): NationalNumber {
  const compact = input.replace(SEPARATORS, '');
  const international = compact.startsWith('+');
  const digits = international ? compact.slice(1) : compact;
  if (!DIGITS.test(digits)) return { ok: false, problem: 'not_digits' };
  let national: string;
  if (international) {
    if (!digits.startsWith(plan.callingCode)) return { ok: false, problem: 'other_country' };
    // "+254 (0) 712 345 678": a trunk prefix written after the dial code is not part of the number either.
    national = withoutTrunkPrefix(digits.slice(plan.callingCode.length), plan);
  } else if (digits.startsWith(plan.callingCode) && plan.lengths.includes(digits.length - plan.callingCode.length)) {
    national = digits.slice(plan.callingCode.length);
  } else {
    national = withoutTrunkPrefix(digits, plan);
  }
  return plan.lengths.includes(national.length) ? { ok: true, number: national } : { ok: false, problem: 'length' };
}

function withoutTrunkPrefix(digits: string, plan: NumberingPlan): string {
  return plan.trunkPrefix !== null && digits.startsWith(plan.trunkPrefix) ? digits.slice(plan.trunkPrefix.length) : digits;
}

/** What a refusal says the number must be: `9 digits without the dial code (+254) or a leading 0, e.g. 712345678`. */
export function expectedForm(plan: NumberingPlan): string {
  const trunk = plan.trunkPrefix === null ? '' : ` or a leading ${plan.trunkPrefix}`;
  return `${describeLengths(plan.lengths)} digits without the dial code (${plan.dialCode})${trunk}, e.g. ${plan.example}`;
}

function describeLengths(lengths: readonly number[]): string {
  if (lengths.length === 1) return String(lengths[0]);
  const contiguous = lengths.every((n, i) => i === 0 || n === lengths[i - 1]! + 1);
  if (contiguous && lengths.length > 2) return `${lengths[0]} to ${lengths[lengths.length - 1]}`;
  return `${lengths.slice(0, -1).join(', ')} or ${lengths[lengths.length - 1]}`;
}

/**
 * The national number of a phone number given for `field`, under the plan of `dialCode` (already
 * checked to be the country's); 400 naming the field and the expected form otherwise. `wallet`: a
 * mobile money account number.
 */
export function requireNationalNumber(input: string, dialCode: string, field: string, kind: 'phone' | 'wallet'): string {
  const plan = numberingPlan(dialCode);
  // Unreachable for a served country: reference data refuses to start without its plan.
  if (!plan) throw AppError.invalidField(field, `cannot be read: no numbering plan for ${dialCode}`);
  const result = nationalNumber(input, plan);
  if (result.ok) return result.number;
  if (result.problem === 'not_digits') {
    throw AppError.invalidField(field, kind === 'wallet' ? 'must be the wallet’s phone number, digits only' : 'must be a phone number, digits only');
  }
  const lead = result.problem === 'other_country' ? `is not a ${plan.dialCode} number; it must be the national number: ` : 'must be the national number: ';
  throw AppError.invalidField(field, `${lead}${expectedForm(plan)}`);
}

/**
 * The international number (MSISDN, digits only, no plus sign: 254712345678) of a stored phone
 * number, as providers take it: the dial code's digits and the national number. A number stored
 * before the rule that it cannot read is sent as it was then: with the dial code's digits once and
 * without a trunk prefix.
 */
export function msisdn(dialCode: string, stored: string): string {
  const plan = numberingPlan(dialCode);
  const code = plan?.callingCode ?? dialCode.replace(/\D/g, '');
  const national = plan ? nationalNumber(stored, plan) : null;
  if (national?.ok) return `${code}${national.number}`;
  const digits = stored.replace(/\D/g, '');
  if (digits.startsWith(code) && digits.length >= code.length + 8) return digits;
  return `${code}${plan ? withoutTrunkPrefix(digits, plan) : digits}`;
}

/** The plan of a dial code (`+254`); undefined for one the service does not serve. */
export function numberingPlan(dialCode: string): NumberingPlan | undefined {
  return PLANS.get(dialCode);
}

interface PlanEntry {
  dial_code: string;
  trunk_prefix: string | null;
  lengths: number[];
  example: string;
}

/** Reads and checks the plans once, at start: a mistake in the file stops the service rather than misreading numbers. */
export function readNumberingPlans(entries: readonly PlanEntry[]): Map<string, NumberingPlan> {
  const plans = new Map<string, NumberingPlan>();
  for (const entry of entries) {
    const where = `Numbering plan ${entry.dial_code}`;
    if (!/^\+[1-9]\d{0,3}$/.test(entry.dial_code)) throw new Error(`${where}: dial_code must be + and 1 to 4 digits`);
    if (plans.has(entry.dial_code)) throw new Error(`${where} is listed twice`);
    if (entry.trunk_prefix !== null && !/^\d{1,2}$/.test(entry.trunk_prefix)) throw new Error(`${where}: trunk_prefix must be 1 or 2 digits, or null`);
    const callingCode = entry.dial_code.slice(1);
    const lengths = [...entry.lengths].sort((a, b) => a - b);
    if (lengths.length === 0 || lengths.some((n) => !Number.isInteger(n) || n < 4 || n + callingCode.length > 15)) {
      throw new Error(`${where}: lengths must be whole numbers from 4, at most 15 digits with the dial code (E.164)`);
    }
    // The one reading rule must never be ambiguous: a number of n + the dial code's length digits that starts with it
    // would otherwise be both a national number and the dial code with one.
    const clash = lengths.find((n) => lengths.includes(n + callingCode.length));
    if (clash !== undefined) throw new Error(`${where}: numbers of ${clash} and ${clash + callingCode.length} digits make the dial code ambiguous`);
    const plan: NumberingPlan = { dialCode: entry.dial_code, callingCode, trunkPrefix: entry.trunk_prefix, lengths, example: entry.example };
    const read = nationalNumber(entry.example, plan);
    if (!read.ok || read.number !== entry.example) throw new Error(`${where}: the example ${entry.example} is not a national number of the plan`);
    plans.set(entry.dial_code, plan);
  }
  return plans;
}

const PLANS = readNumberingPlans(plansFile.plans);
