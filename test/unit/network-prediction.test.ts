import networkPrefixesFile from '../../src/modules/reference/data/network-prefixes.json';
import { readNetworkPrefixes, readReferenceData } from '../../src/modules/reference/reference.data';
import { buildNetworkPrefixPlans, pagePrefixTable, predictFromPageTable, predictNetwork } from '../../src/shared/network-prediction';

describe('predictNetwork', () => {
  const plans = buildNetworkPrefixPlans([
    {
      countryCode: 'XX',
      networks: [
        { code: 'A', prefixes: ['7', '81'] },
        { code: 'B', prefixes: ['71', '812'] },
      ],
    },
  ]);

  it.each([
    ['712345678', 'B'], // 71 is longer than 7
    ['722345678', 'A'],
    ['812345678', 'B'],
    ['813345678', 'A'],
    ['7', 'A'],
    ['71 23 45', 'B'], // separators ignored
    ['(812) 345-678', 'B'],
    ['912345678', null],
    ['', null],
    ['abc', null],
  ])('%p → %p', (number, expected) => {
    expect(predictNetwork(plans, 'XX', number)).toBe(expected);
  });

  it('the page table predicts the same as the plans', () => {
    const table = pagePrefixTable(plans, 'XX', '+999', '0')!;
    for (const n of ['712345678', '722345678', '812345678', '813345678', '912345678', '', '71 2']) {
      expect(predictFromPageTable(table, n)).toBe(predictNetwork(plans, 'XX', n));
    }
  });

  it('a country without a plan predicts nothing', () => {
    expect(predictNetwork(plans, 'YY', '712345678')).toBeNull();
  });
});

describe('the bundled prefixes (network-prefixes.json)', () => {
  const plans = readNetworkPrefixes();

  it('cover the momo countries of the brief, each with a source', () => {
    for (const c of ['GH', 'KE', 'UG', 'TZ', 'RW', 'ZM', 'NG', 'CM', 'CI', 'SN', 'BJ', 'TG', 'BF', 'ML']) {
      expect({ c, has: (plans.get(c)?.length ?? 0) > 0 }).toEqual({ c, has: true });
    }
    for (const country of networkPrefixesFile.countries) expect(country.source).toMatch(/Telephone numbers in/);
  });

  it.each([
    ['GH', '241234567', 'MTN'],
    ['GH', '201234567', 'TELECEL'],
    ['GH', '271234567', 'AIRTELTIGO'],
    ['KE', '712345678', 'MPESA'],
    ['KE', '110123456', 'MPESA'],
    ['KE', '733123456', 'AIRTEL'],
    ['KE', '101123456', 'AIRTEL'],
    ['UG', '772123456', 'MTN'],
    ['UG', '701234567', 'AIRTEL'],
    ['TZ', '754123456', 'MPESA'],
    ['TZ', '621234567', 'HALOPESA'],
    ['RW', '788123456', 'MTN'],
    ['ZM', '955123456', 'ZAMTEL'],
    ['NG', '8031234567', 'MOMOPSB'],
    ['NG', '8021234567', 'SMARTCASH'],
    ['NG', '7025123456', 'MOMOPSB'],
    ['CI', '0701234567', 'ORANGE'],
    ['CI', '0501234567', 'MTN'],
    ['CM', '671234567', 'MTN'],
    ['CM', '691234567', 'ORANGE'],
    ['SN', '771234567', 'ORANGE'],
    ['BJ', '0196123456', 'MTN'],
    ['BJ', '0195123456', 'MOOV'],
    ['TG', '90112345', 'MIXX'],
    ['BF', '70123456', 'MOOV'],
    ['ML', '65012345', 'MOOV'],
  ])('%p %p → %p', (country, number, network) => {
    expect(predictNetwork(plans, country, number)).toBe(network);
  });

  it('a wallet open to any number (OPay, Wave) is never predicted; a landline predicts nothing', () => {
    const all = [...plans.values()].flat().map((p) => p.network);
    expect(all).not.toContain('OPAY');
    expect(all).not.toContain('WAVE');
    expect(predictNetwork(plans, 'GH', '302123456')).toBeNull();
  });

  it('the page table carries the dial code, the trunk prefix and the prefixes', () => {
    const table = pagePrefixTable(plans, 'GH', '+233', '0');
    expect(table).toMatchObject({ dial: '233', trunk: '0' });
    expect(table!.prefixes['24']).toBe('MTN');
    expect(pagePrefixTable(plans, 'GB', '+44', '0')).toBeNull();
  });
});

describe('readNetworkPrefixes refuses a wrong file', () => {
  const data = readReferenceData();
  const file = (countries: unknown) => ({ about: 'test', countries });
  const country = (networks: unknown, country_code = 'GH') => ({ country_code, source: 'Telephone numbers in Ghana', networks });

  it.each([
    ['a network that is not a momo network of the country', [country([{ code: 'MPESA', prefixes: ['24'] }])], /MPESA is not a mobile money network/],
    ['an unknown country', [country([{ code: 'MTN', prefixes: ['24'] }], 'ZZ')], /unknown country/],
    [
      'a prefix listed twice',
      [
        country([
          { code: 'MTN', prefixes: ['24'] },
          { code: 'TELECEL', prefixes: ['24'] },
        ]),
      ],
      /lists 24 twice/,
    ],
    [
      'a prefix inside another network’s',
      [
        country([
          { code: 'MTN', prefixes: ['2'] },
          { code: 'TELECEL', prefixes: ['20'] },
        ]),
      ],
      /20 \(TELECEL\) is inside 2 \(MTN\)/,
    ],
    ['a prefix that is not digits', [country([{ code: 'MTN', prefixes: ['2x'] }])], /invalid/],
    ['a country listed twice', [country([{ code: 'MTN', prefixes: ['24'] }]), country([{ code: 'MTN', prefixes: ['25'] }])], /lists GH twice/],
  ])('%s', (_what, countries, message) => {
    expect(() => readNetworkPrefixes(file(countries), data)).toThrow(message);
  });
});
