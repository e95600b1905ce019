import { luhnValid } from '../../shared/card-numbers';
import type { ErrorDetail } from '../../shared/errors';
import { isCalendarDate } from '../../shared/fields';

/**
 * The identity documents KYC takes (CONTRACT §4). Passports, national ids and driving licences
 * exist everywhere and their numbers follow no one format: they are taken as written. The local
 * documents below are the product's countries' own, kept only where the number's format is
 * public: each is taken only with its own `idCountry` and held to its format. A country whose
 * format is not public (Kenya's ID card, the CFA countries', Botswana's, Malawi's, GB, US) is
 * submitted as `national_id`.
 *
 * This table is the one place a document is defined: the domain's list of types (and so the
 * GraphQL enum and the OpenAPI enum), the check, the messages and the documentation come from it.
 */
export const GENERAL_ID_TYPES = ['passport', 'national_id', 'drivers_license'] as const;

interface LocalIdDocument {
  /** What it is, for the documentation. */
  title: string;
  /** The countries that issue it (ISO 3166-1 alpha-2): a submission's idCountry must be one of them. */
  countries: readonly string[];
  /**
   * The forms accepted, the separators people write included; letters in either case. Its groups
   * (or, without any, the whole match) are the number, upper-cased.
   */
  pattern: RegExp;
  /** The number as it is kept (sealed) and shown to reviewers; by default the groups joined. */
  keep?: (groups: string[]) => string;
  /** The expected form, said in the error ("must be …") and in the documentation. */
  format: string;
  /** A rule the pattern cannot state (a real date, a check digit) on the kept number: what is wrong, or null. */
  check?: (kept: string) => string | null;
}

const DIGITS_11 = /^(\d{11})$/;

export const LOCAL_ID_DOCUMENTS = {
  // Bank Verification Number (CBN, issued through NIBSS): 11 digits. KYC providers publish the same
  // rule (Smile ID's "ID Number Regex" page: BVN /^[0-9]{11}$/; Flutterwave's BVN verification guide).
  bvn: { title: 'Nigeria’s Bank Verification Number', countries: ['NG'], pattern: DIGITS_11, format: '11 digits' },
  // National Identification Number (NIMC, NIMC Act 2007): "11 non-intelligible numbers" assigned at
  // enrolment (NIMC's NIN guidance; Smile ID: NIN_V2 /^[0-9]{11}$/). The 16-digit virtual NIN is not this.
  nin: { title: 'Nigeria’s National Identification Number', countries: ['NG'], pattern: DIGITS_11, format: '11 digits' },
  // KRA PIN (Kenya Revenue Authority, iTax): 11 characters, A for an individual or P for any other
  // taxpayer, 9 digits, a check letter whose rule KRA does not publish (KRA's PIN guidance, e.g.
  // A004416331M, P051365947M; Smile ID: /^[Aa]\d{9}[a-zA-Z]$/ for individuals).
  kra_pin: {
    title: 'Kenya’s KRA PIN (tax PIN)',
    countries: ['KE'],
    pattern: /^([AP]\d{9}[A-Z])$/i,
    format: 'A or P, 9 digits and a letter, e.g. A123456789Z',
  },
  // Ghana Card PIN (National Identification Authority, Act 707): GHA-, 9 digits, a check digit, printed
  // GHA-XXXXXXXXX-X (NIA; verification APIs answer it so: QoreID's and Prembly's `GHA-123456789-0`). The
  // check digit's rule is not published: only that it is a digit is checked. Kept in the printed form.
  ghana_card: {
    title: 'Ghana Card (NIA personal identification number)',
    countries: ['GH'],
    pattern: /^GHA[- ]?(\d{9})[- ]?(\d)$/i,
    keep: ([serial, check]) => `GHA-${serial}-${check}`,
    format: 'GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0',
  },
  // National Identification Number (NIRA, Registration of Persons Act 2015): 14 letters and digits
  // (Smile ID: NATIONAL_ID_NO_PHOTO /^[A-Z0-9]{14}$/i). Citizens' start CM or CF; others' prefixes
  // are not published, so only the length and alphabet are checked.
  uganda_nin: {
    title: 'Uganda’s National Identification Number (NIRA)',
    countries: ['UG'],
    pattern: /^([A-Z0-9]{14})$/i,
    format: '14 letters and digits, e.g. CM90012345678X',
  },
  // National Identification Number (NIDA Tanzania): 20 digits, the first 8 the date of birth as YYYYMMDD,
  // printed in groups 8-5-5-2 (NIDA's card; "Mfano na namba ya NIDA" guides). Kept as 20 digits.
  tanzania_nin: {
    title: 'Tanzania’s National Identification Number (NIDA)',
    countries: ['TZ'],
    pattern: /^(\d{8})-?(\d{5})-?(\d{5})-?(\d{2})$/,
    format: '20 digits starting with the date of birth as YYYYMMDD, e.g. 19900412-12345-00001-23',
    check: (kept) => (isCalendarDate(`${kept.slice(0, 4)}-${kept.slice(4, 6)}-${kept.slice(6, 8)}`) ? null : 'must start with a real date of birth (YYYYMMDD)'),
  },
  // National ID number (NIDA Rwanda): 16 digits in six groups: 1 citizen, 2 refugee or 3 foreigner; the
  // year of birth; 8 male or 7 female; 7 digits of birth order; the times issued; 2 security digits
  // (NIDA's structure as reported by KT Press, June 2025, and ICK Journalism). Kept as 16 digits.
  rwanda_nid: {
    title: 'Rwanda’s national ID number (NIDA)',
    countries: ['RW'],
    pattern: /^([1-3]) ?((?:19|20)\d{2}) ?([78]) ?(\d{7}) ?(\d) ?(\d{2})$/,
    format: '16 digits: 1, 2 or 3, the year of birth, 7 or 8, then 10 digits, e.g. 1199080012345012',
  },
  // South African ID number (Department of Home Affairs): 13 digits YYMMDD SSSS C A Z, the date of birth,
  // a sequence, citizenship, a digit once used for race, and Z a Luhn check digit (Western Cape Government,
  // "Decoding your South African ID number"). Accepted whole or in its printed groups; kept as 13 digits.
  sa_id: {
    title: 'South African ID number',
    countries: ['ZA'],
    pattern: /^(\d{6}) ?(\d{4}) ?(\d{3})$/,
    format: '13 digits (YYMMDD SSSS C A Z), e.g. 8001015009087',
    check: southAfricanIdIssue,
  },
  // National Registration Card (Department of National Registration, Passport and Citizenship, National
  // Registration Act 1965): NNNNNN/DD/N: a serial, the province and district, 1 Zambian, 2 Commonwealth
  // or 3 other (the first card, 000001/11/1, is the usual worked example). Kept in the printed form.
  zambia_nrc: {
    title: 'Zambia’s National Registration Card number',
    countries: ['ZM'],
    pattern: /^(\d{6})\/?(\d{2})\/?([1-3])$/,
    keep: ([serial, district, nationality]) => `${serial}/${district}/${nationality}`,
    format: 'NNNNNN/DD/N as on the card (the last digit 1, 2 or 3), e.g. 123456/10/1',
  },
} as const satisfies Record<string, LocalIdDocument>;

/**
 * A South African ID's rules beyond its 13 digits: it starts with a real date (YYMMDD, of the 1900s or
 * the 2000s: 000229 is 29 February 2000) and its last digit is the Luhn check digit.
 */
function southAfricanIdIssue(kept: string): string | null {
  const [yy, mm, dd] = [kept.slice(0, 2), kept.slice(2, 4), kept.slice(4, 6)];
  if (!isCalendarDate(`19${yy}-${mm}-${dd}`) && !isCalendarDate(`20${yy}-${mm}-${dd}`)) return 'must start with a real date of birth (YYMMDD)';
  if (!luhnValid(kept)) return 'has a wrong check digit: the last digit must make the 13 digits pass the Luhn check';
  return null;
}

export type LocalIdType = keyof typeof LOCAL_ID_DOCUMENTS;
export type IdType = (typeof GENERAL_ID_TYPES)[number] | LocalIdType;

const LOCAL_ID_TYPES = Object.keys(LOCAL_ID_DOCUMENTS) as LocalIdType[];

/** Every identity document KYC takes: the general ones, then the local ones. */
export const ID_TYPES: readonly IdType[] = [...GENERAL_ID_TYPES, ...LOCAL_ID_TYPES];

const isLocal = (idType: IdType): idType is LocalIdType => Object.hasOwn(LOCAL_ID_DOCUMENTS, idType);

const orList = (words: readonly string[]) => words.join(', ').replace(/, ([^,]*)$/, ' or $1');

/** idType's message when it is none of them. */
export const ID_TYPE_ISSUE = `must be ${orList(ID_TYPES)}`;

/**
 * A submission's identity document read against the table: its number as kept (a local document's
 * in its one form, a general one's as written) and what is wrong, each naming its field in the domain's
 * names. Never the number in a message.
 */
export function readIdDocument(idType: IdType, idNumber: string, idCountry: string): { idNumber: string; issues: ErrorDetail[] } {
  if (!isLocal(idType)) return { idNumber, issues: [] };
  const document: LocalIdDocument = LOCAL_ID_DOCUMENTS[idType];
  const issues: ErrorDetail[] = [];
  if (!document.countries.includes(idCountry)) issues.push({ field: 'idCountry', issue: `must be ${orList(document.countries)} for ${idType}` });
  const match = document.pattern.exec(idNumber);
  if (!match) return { idNumber, issues: [...issues, { field: 'idNumber', issue: `must be ${document.format}` }] };
  const groups = match.slice(1).map((group) => group.toUpperCase());
  const kept = document.keep ? document.keep(groups) : groups.join('');
  const problem = document.check?.(kept);
  if (problem) issues.push({ field: 'idNumber', issue: problem });
  return { idNumber: kept, issues };
}

/** One line per local document, for the documentation of the doors: "Nigeria’s Bank Verification Number, issued in NG: 11 digits". */
export function localIdTypeSummaries(): Array<{ idType: LocalIdType; summary: string }> {
  return LOCAL_ID_TYPES.map((idType) => {
    const document: LocalIdDocument = LOCAL_ID_DOCUMENTS[idType];
    return { idType, summary: `${document.title}, issued in ${orList(document.countries)}: ${document.format}` };
  });
}
