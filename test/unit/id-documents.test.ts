import { GENERAL_ID_TYPES, ID_TYPES, LOCAL_ID_DOCUMENTS, readIdDocument, type IdType, type LocalIdType } from '../../src/modules/kyc/id-documents';
import { submitKycSchema } from '../../src/modules/kyc/kyc.service';
import { AppError, type ErrorDetail } from '../../src/shared/errors';
import { parseInput } from '../../src/shared/validation';

/** Each local document: its country, numbers it takes (as written → as kept), numbers it refuses (→ the issue). */
const FORMATS: Record<LocalIdType, { country: string; valid: Array<[string, string]>; invalid: Array<[string, string]> }> = {
  bvn: {
    country: 'NG',
    valid: [['22212345678', '22212345678']],
    invalid: [
      ['2221234567', 'must be 11 digits'],
      ['222123456789', 'must be 11 digits'],
      ['2221234567A', 'must be 11 digits'],
      ['222 1234 5678', 'must be 11 digits'],
    ],
  },
  nin: {
    country: 'NG',
    valid: [['70123456789', '70123456789']],
    invalid: [
      ['7012345678', 'must be 11 digits'],
      ['7012345678901234', 'must be 11 digits'],
    ],
  },
  kra_pin: {
    country: 'KE',
    valid: [
      ['A123456789Z', 'A123456789Z'],
      ['P051365947M', 'P051365947M'],
      ['a004416331m', 'A004416331M'],
    ],
    invalid: [
      ['B123456789Z', 'must be A or P, 9 digits and a letter, e.g. A123456789Z'],
      ['A12345678Z', 'must be A or P, 9 digits and a letter, e.g. A123456789Z'],
      ['A1234567890', 'must be A or P, 9 digits and a letter, e.g. A123456789Z'],
      ['12345678', 'must be A or P, 9 digits and a letter, e.g. A123456789Z'],
    ],
  },
  ghana_card: {
    country: 'GH',
    valid: [
      ['GHA-123456789-0', 'GHA-123456789-0'],
      ['gha-723456789-5', 'GHA-723456789-5'],
      ['GHA1234567890', 'GHA-123456789-0'],
      ['GHA 123456789 0', 'GHA-123456789-0'],
    ],
    invalid: [
      ['GHA-12345678-0', 'must be GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0'],
      ['GHA-123456789', 'must be GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0'],
      ['GHA-123456789-X', 'must be GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0'],
      ['GHB-123456789-0', 'must be GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0'],
      ['123456789-0', 'must be GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0'],
    ],
  },
  uganda_nin: {
    country: 'UG',
    valid: [
      ['CM90012345678X', 'CM90012345678X'],
      ['cf85034567abcd', 'CF85034567ABCD'],
    ],
    invalid: [
      ['CM9001234567X', 'must be 14 letters and digits, e.g. CM90012345678X'],
      ['CM90-12345678X', 'must be 14 letters and digits, e.g. CM90012345678X'],
    ],
  },
  tanzania_nin: {
    country: 'TZ',
    valid: [
      ['19900412123450000123', '19900412123450000123'],
      ['19900412-12345-00001-23', '19900412123450000123'],
      ['20000229-12345-00001-23', '20000229123450000123'],
    ],
    invalid: [
      ['1990041212345000012', 'must be 20 digits starting with the date of birth as YYYYMMDD, e.g. 19900412-12345-00001-23'],
      ['1990-0412-12345-00001-23', 'must be 20 digits starting with the date of birth as YYYYMMDD, e.g. 19900412-12345-00001-23'],
      ['19901332-12345-00001-23', 'must start with a real date of birth (YYYYMMDD)'],
      ['19000229-12345-00001-23', 'must start with a real date of birth (YYYYMMDD)'],
    ],
  },
  rwanda_nid: {
    country: 'RW',
    valid: [
      ['1199080012345012', '1199080012345012'],
      ['1 1990 8 0012345 0 12', '1199080012345012'],
      ['3200570000001099', '3200570000001099'],
    ],
    invalid: [
      ['4199080012345012', 'must be 16 digits: 1, 2 or 3, the year of birth, 7 or 8, then 10 digits, e.g. 1199080012345012'],
      ['1199060012345012', 'must be 16 digits: 1, 2 or 3, the year of birth, 7 or 8, then 10 digits, e.g. 1199080012345012'],
      ['1189080012345012', 'must be 16 digits: 1, 2 or 3, the year of birth, 7 or 8, then 10 digits, e.g. 1199080012345012'],
      ['119908001234501', 'must be 16 digits: 1, 2 or 3, the year of birth, 7 or 8, then 10 digits, e.g. 1199080012345012'],
    ],
  },
  sa_id: {
    country: 'ZA',
    valid: [
      ['8001015009087', '8001015009087'],
      ['800101 5009 087', '8001015009087'],
      // 29 February exists in 2000: YY is read in the 1900s or the 2000s.
      ['0002295009084', '0002295009084'],
    ],
    invalid: [
      ['800101500908', 'must be 13 digits (YYMMDD SSSS C A Z), e.g. 8001015009087'],
      ['80010150090871', 'must be 13 digits (YYMMDD SSSS C A Z), e.g. 8001015009087'],
      ['80-01-01-5009-087', 'must be 13 digits (YYMMDD SSSS C A Z), e.g. 8001015009087'],
      // The Luhn check: the last digit changed.
      ['8001015009088', 'has a wrong check digit: the last digit must make the 13 digits pass the Luhn check'],
      // Luhn-valid, but 30 February and month 13 are no dates.
      ['9002305009083', 'must start with a real date of birth (YYMMDD)'],
      ['8013015009082', 'must start with a real date of birth (YYMMDD)'],
    ],
  },
  zambia_nrc: {
    country: 'ZM',
    valid: [
      ['123456/10/1', '123456/10/1'],
      ['000001/11/1', '000001/11/1'],
      ['479974113', '479974/11/3'],
    ],
    invalid: [
      ['123456/10/4', 'must be NNNNNN/DD/N as on the card (the last digit 1, 2 or 3), e.g. 123456/10/1'],
      ['12345/10/1', 'must be NNNNNN/DD/N as on the card (the last digit 1, 2 or 3), e.g. 123456/10/1'],
      ['123456-10-1', 'must be NNNNNN/DD/N as on the card (the last digit 1, 2 or 3), e.g. 123456/10/1'],
    ],
  },
};

const submission = (idType: string, idNumber: string, idCountry: string) => ({
  idType,
  idNumber,
  idCountry,
  dateOfBirth: '1990-04-12',
  address: { line1: '1 Main Road', city: 'Capital', countryCode: idCountry },
});

function refusal(input: unknown): ErrorDetail[] {
  try {
    parseInput(submitKycSchema, input);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_REQUEST');
    return (err as AppError).details ?? [];
  }
  throw new Error('expected the submission to be refused');
}

describe('local identity documents', () => {
  it('covers every local document in this table, and ID_TYPES lists the general ones then the local ones', () => {
    expect(Object.keys(FORMATS).sort()).toEqual(Object.keys(LOCAL_ID_DOCUMENTS).sort());
    expect(ID_TYPES).toEqual([...GENERAL_ID_TYPES, ...Object.keys(LOCAL_ID_DOCUMENTS)]);
  });

  describe.each(Object.entries(FORMATS) as Array<[LocalIdType, (typeof FORMATS)[LocalIdType]]>)('%s', (idType, { country, valid, invalid }) => {
    it.each(valid)(`takes %s, kept as %s`, (written, kept) => {
      expect(readIdDocument(idType, written, country)).toEqual({ idNumber: kept, issues: [] });
      expect(() => parseInput(submitKycSchema, submission(idType, written, country))).not.toThrow();
    });

    it.each(invalid)('refuses %s: idNumber %s', (written, issue) => {
      expect(readIdDocument(idType, written, country).issues).toEqual([{ field: 'idNumber', issue }]);
      expect(refusal(submission(idType, written, country))).toEqual([{ field: 'idNumber', issue }]);
    });

    it(`is taken only with id_country ${country}`, () => {
      const other = country === 'KE' ? 'UG' : 'KE';
      const [[number, kept]] = valid as [[string, string]];
      expect(readIdDocument(idType, number, other)).toEqual({ idNumber: kept, issues: [{ field: 'idCountry', issue: `must be ${country} for ${idType}` }] });
      expect(refusal(submission(idType, number, other))).toEqual([{ field: 'idCountry', issue: `must be ${country} for ${idType}` }]);
    });
  });

  it('names both fields when the country and the number are wrong, and every other problem in the same answer', () => {
    const input = { ...submission('bvn', '12345', 'GH'), address: { line1: '1 Main Road', countryCode: 'GH' } };
    expect(refusal(input)).toEqual(
      expect.arrayContaining([
        { field: 'idCountry', issue: 'must be NG for bvn' },
        { field: 'idNumber', issue: 'must be 11 digits' },
        { field: 'address.city', issue: 'is required' },
      ]),
    );
    expect(refusal(input)).toHaveLength(3);
  });

  it('refuses a body that is no object, or whose document fields are of the wrong type, without reading the table', () => {
    for (const junk of ['bvn', 11, [], [submission('bvn', '22212345678', 'NG')], { idType: 'bvn', idNumber: 22212345678, idCountry: 'NG' }]) {
      expect(refusal(junk).length).toBeGreaterThan(0);
    }
  });

  it('leaves the general documents’ numbers as written, in any country', () => {
    for (const idType of GENERAL_ID_TYPES) {
      expect(readIdDocument(idType, 'A12345678', 'KE')).toEqual({ idNumber: 'A12345678', issues: [] });
      expect(readIdDocument(idType, 'REJECT-0001', 'ZA')).toEqual({ idNumber: 'REJECT-0001', issues: [] });
      expect(() => parseInput(submitKycSchema, submission(idType, 'REJECT-0001', 'ZA'))).not.toThrow();
    }
  });

  it('names id_type’s values when it is none of them, and never echoes a number in a message', () => {
    const [detail] = refusal(submission('library_card', '22212345678', 'NG'));
    expect(detail!.field).toBe('idType');
    for (const idType of ID_TYPES) expect(detail!.issue).toContain(idType);
    const issues = (Object.keys(FORMATS) as IdType[]).flatMap((idType) => readIdDocument(idType, '98765432109876', 'US').issues);
    expect(issues.length).toBeGreaterThan(0);
    for (const { issue } of issues) expect(issue).not.toContain('98765432109876');
  });
});
