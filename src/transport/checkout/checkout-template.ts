import type { CheckoutLanguage } from '../../modules/checkout/checkout.views';
import { escapeHtml } from '../../providers/sandbox/three-ds-page';
import { CHECKOUT_STRINGS, type CheckoutStrings } from './checkout-i18n';

/**
 * The checkout pages' templates: each is written once per language at module load, its fixed text
 * already in place and escaped, and compiled into its fixed parts and slots. A request only fills
 * the slots: `{{name}}` takes text (escaped here), `{{{name}}}` takes HTML another template made.
 * A value is never parsed as a template, so nothing a merchant or payer typed can open a slot.
 */
export type Template = (values: Readonly<Record<string, string>>) => string;

const SLOT = /\{\{\{(\w+)\}\}\}|\{\{(\w+)\}\}/g;

let compiled = 0;
/** How many templates have been compiled since the process started: all at module load, none per request (a test holds it). */
export const templatesCompiled = (): number => compiled;

export function compile(source: string): Template {
  compiled += 1;
  const fixed: string[] = [];
  const slots: Array<{ name: string; html: boolean }> = [];
  let last = 0;
  for (const m of source.matchAll(SLOT)) {
    fixed.push(source.slice(last, m.index));
    slots.push({ name: (m[1] ?? m[2])!, html: m[1] !== undefined });
    last = m.index + m[0].length;
  }
  fixed.push(source.slice(last));
  return (values) => {
    let out = fixed[0]!;
    for (let i = 0; i < slots.length; i++) {
      const { name, html } = slots[i]!;
      const value = values[name];
      if (value === undefined) throw new Error(`Checkout template: no value for ${name}`);
      out += (html ? value : escapeHtml(value)) + fixed[i + 1]!;
    }
    return out;
  };
}

/** A string of the language as template source: escaped, its `{name}` placeholders made slots. */
export function tx(t: CheckoutStrings, key: keyof CheckoutStrings): string {
  return escapeHtml(t[key]).replace(/\{(\w+)\}/g, '{{$1}}');
}

/** Builds a set of templates for each language, once. */
export function perLanguage<T>(build: (t: CheckoutStrings, lang: CheckoutLanguage) => T): Record<CheckoutLanguage, T> {
  return { en: build(CHECKOUT_STRINGS.en, 'en'), fr: build(CHECKOUT_STRINGS.fr, 'fr') };
}

/** A string of the language with its placeholders filled, as plain text (the caller escapes it). */
export function say(lang: CheckoutLanguage, key: keyof CheckoutStrings, values: Record<string, string> = {}): string {
  return CHECKOUT_STRINGS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * Data for the page's script, in a `<script type="application/json">` block (never executed, so
 * allowed by `script-src 'self'`): every character that could end the block or start markup is
 * written as a JSON escape.
 */
export function jsonBlock(id: string, data: unknown): string {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="${escapeHtml(id)}">${json}</script>`;
}

/** A URL the page may link to (the merchant's return pages, a provider's page): http(s) only, normalised, else null. */
export function linkable(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** "GHS 2,500.00" in English, "2 500,00 GHS" in French; from the decimal string, never a float. */
export function formatAmount(amount: string, currency: string, lang: CheckoutLanguage): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'fr' ? '\u202f' : ',');
  const number = `${negative ? '-' : ''}${grouped}${fraction !== undefined ? (lang === 'fr' ? ',' : '.') + fraction : ''}`;
  return lang === 'fr' ? `${number}\u00a0${currency}` : `${currency} ${number}`;
}

/** The time zone the payer most likely reads the clock in: the merchant's (the payer's) country's. */
const TIME_ZONES: Record<string, string> = {
  NG: 'Africa/Lagos',
  KE: 'Africa/Nairobi',
  GH: 'Africa/Accra',
  UG: 'Africa/Kampala',
  TZ: 'Africa/Dar_es_Salaam',
  RW: 'Africa/Kigali',
  ZA: 'Africa/Johannesburg',
  BJ: 'Africa/Porto-Novo',
  BW: 'Africa/Gaborone',
  BF: 'Africa/Ouagadougou',
  CM: 'Africa/Douala',
  CI: 'Africa/Abidjan',
  CD: 'Africa/Kinshasa',
  CG: 'Africa/Brazzaville',
  GA: 'Africa/Libreville',
  ML: 'Africa/Bamako',
  MW: 'Africa/Blantyre',
  TG: 'Africa/Lome',
  ZM: 'Africa/Lusaka',
  SN: 'Africa/Dakar',
  NE: 'Africa/Niamey',
  GN: 'Africa/Conakry',
  GB: 'Europe/London',
  US: 'America/New_York',
};
const clocks = new Map<string, Intl.DateTimeFormat>();

/** "14:05" in the country's time zone (UTC for a country without one). */
export function formatClock(at: Date, countryCode: string, lang: CheckoutLanguage): string {
  const timeZone = TIME_ZONES[countryCode] ?? 'UTC';
  const key = `${lang}/${timeZone}`;
  let clock = clocks.get(key);
  if (!clock) {
    clock = new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
    clocks.set(key, clock);
  }
  return clock.format(at);
}

/** "about 59 minutes", "about 3 hours", or that the time is up. */
export function timeLeft(now: Date, until: Date, lang: CheckoutLanguage): string {
  const minutes = Math.ceil((until.getTime() - now.getTime()) / 60_000);
  if (minutes <= 0) return say(lang, 'expiredNow');
  if (minutes === 1) return say(lang, 'aboutMinute');
  if (minutes < 120) return say(lang, 'aboutMinutes', { n: String(minutes) });
  return say(lang, 'aboutHours', { n: String(Math.round(minutes / 60)) });
}
