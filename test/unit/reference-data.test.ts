import channelsFile from '../../src/modules/reference/data/channels.json';
import countriesFile from '../../src/modules/reference/data/countries.json';
import { BUNDLED_REFERENCE_FILES, readReferenceData } from '../../src/modules/reference/reference.data';

/** The spec's 22 countries. */
const SPEC_COUNTRIES = ['NG', 'KE', 'GH', 'UG', 'TZ', 'RW', 'ZA', 'BJ', 'BW', 'BF', 'CM', 'CI', 'CD', 'CG', 'GA', 'ML', 'MW', 'TG', 'ZM', 'SN', 'GB', 'US'];

describe('reference data files', () => {
  const data = readReferenceData();

  it('list exactly the spec countries', () => {
    expect(data.countries.map((c) => c.code).sort()).toEqual([...SPEC_COUNTRIES].sort());
  });

  it('give the CFA countries XOF/XAF and the ISO 4217 minor units', () => {
    const currencyOf = new Map(data.countries.map((c) => [c.code, c.currency]));
    for (const code of ['BJ', 'BF', 'CI', 'ML', 'TG', 'SN']) expect(currencyOf.get(code)).toBe('XOF');
    for (const code of ['CM', 'CG', 'GA']) expect(currencyOf.get(code)).toBe('XAF');
    expect(currencyOf.get('CD')).toBe('CDF');
    const minorUnit = new Map(data.currencies.map((c) => [c.code, c.minorUnit]));
    for (const code of ['UGX', 'RWF', 'XOF', 'XAF']) expect(minorUnit.get(code)).toBe(0);
    for (const code of ['NGN', 'KES', 'GHS', 'TZS', 'ZAR', 'BWP', 'CDF', 'MWK', 'ZMW', 'GBP', 'USD']) expect(minorUnit.get(code)).toBe(2);
  });

  it('give stable, readable channel ids', () => {
    for (const channel of data.channels) {
      expect(channel.id).toBe(`${channel.countryCode.toLowerCase()}_${channel.channelType}_${channel.rampType}`);
    }
  });

  it('are checked: a channel of an unknown country, a duplicate, or min above max is refused', () => {
    const channel = channelsFile[0]!;
    expect(() => readReferenceData({ ...BUNDLED_REFERENCE_FILES, channels: [...channelsFile, channel] })).toThrow(/twice/);
    expect(() => readReferenceData({ ...BUNDLED_REFERENCE_FILES, channels: [{ ...channel, country_code: 'FR' }] })).toThrow(/unknown country FR/);
    expect(() => readReferenceData({ ...BUNDLED_REFERENCE_FILES, channels: [{ ...channel, min_amount: '10', max_amount: '5' }] })).toThrow(
      /min_amount exceeds max_amount/,
    );
    expect(() => readReferenceData({ ...BUNDLED_REFERENCE_FILES, channels: [{ ...channel, min_amount: '0.001' }] })).toThrow(/decimal places/);
    expect(() => readReferenceData({ ...BUNDLED_REFERENCE_FILES, countries: [{ ...countriesFile[0]!, dial_code: '234' }] })).toThrow(/invalid/);
  });
});
