import { z } from 'zod';
import banksFile from './data/banks.json';
import type { Bank } from './reference.types';

/** Local codes per country: Nigeria's CBN/NIP codes are 3 digits (commercial banks), 5 or 6 (microfinance banks, PSBs, wallets). */
const CODE_FORMS: Record<string, RegExp> = { NG: /^(\d{3}|\d{5,6})$/, KE: /^\d{2}$/, ZA: /^\d{6}$/ };

const banksFileSchema = z.object({
  about: z.string(),
  countries: z.array(
    z.object({
      country_code: z.string().regex(/^[A-Z]{2}$/),
      code_name: z.string().min(1),
      source: z.string().min(1),
      banks: z
        .array(
          z.object({
            code: z.string().regex(/^\d{2,6}$/),
            name: z.string().min(1),
            type: z.enum(['bank', 'mobile_money']),
            network_id: z
              .string()
              .regex(/^[a-z0-9_]+$/)
              .optional(),
            checked: z.literal(false).optional(),
          }),
        )
        .min(1),
    }),
  ),
});

/**
 * The banks and wallets of ./data/banks.json, by their local codes, checked at start against the networks
 * (`networkCountry`: a network id's country): each country once, with its source; each code in its country's
 * form and once; a linked network of the same country, and linked by one bank at most.
 */
export function readBanks(networkCountry: (networkId: string) => string | undefined, content: unknown = banksFile): Bank[] {
  const result = banksFileSchema.safeParse(content);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Reference data banks.json is invalid: ${problems}`);
  }
  const banks: Bank[] = [];
  const countries = new Set<string>();
  const linked = new Set<string>();
  for (const country of result.data.countries) {
    const where = `banks.json ${country.country_code}`;
    if (countries.has(country.country_code)) throw new Error(`${where}: listed twice`);
    countries.add(country.country_code);
    const codes = new Set<string>();
    for (const bank of country.banks) {
      const form = CODE_FORMS[country.country_code];
      if (form && !form.test(bank.code)) throw new Error(`${where}: ${bank.name}'s code ${bank.code} is not a ${country.code_name}`);
      if (codes.has(bank.code)) throw new Error(`${where}: code ${bank.code} is listed twice`);
      codes.add(bank.code);
      if (bank.network_id !== undefined) {
        if (networkCountry(bank.network_id) !== country.country_code) throw new Error(`${where}: ${bank.network_id} is not a network of the country`);
        if (linked.has(bank.network_id)) throw new Error(`${where}: ${bank.network_id} is linked twice`);
        linked.add(bank.network_id);
      }
      banks.push({
        code: bank.code,
        name: bank.name,
        countryCode: country.country_code,
        type: bank.type,
        networkId: bank.network_id ?? null,
        source: country.source,
      });
    }
  }
  return banks;
}
