import { z } from 'zod';
import type { GuardedConnector } from '../../providers/breaker';
import type { Route } from '../../providers/connector';
import { AppError } from '../../shared/errors';
import { accountNumberField, BANK_ACCOUNT_NUMBER, countryCodeField, upperCased } from '../../shared/fields';
import { msisdn, requireNationalNumber } from '../../shared/phone-numbers';
import { parseInput, type Command } from '../../shared/validation';
import type { Rails } from '../rails/rails';
import type { BanksQuery, ReferenceService } from '../reference/reference.service';
import type { Bank, Country, Network } from '../reference/reference.types';
import { namesMatch } from './name-match';

export const BANK_METHODS = ['transfer', 'collection', 'account_resolution'] as const;
export type BankMethod = (typeof BANK_METHODS)[number];

/** A bank or wallet as GET /v1/banks lists it: what the service can do with it here (routing decides). */
export type BankListing = Bank & { methods: BankMethod[] };

/** POST /v1/accounts/resolve: a bank by its local code, or a network (a wallet's operator, or a bank) by its id. */
export const resolveAccountSchema = z.object({
  country: upperCased(countryCodeField),
  bankCode: z
    .string({ error: 'must be a string' })
    .regex(/^\d{2,6}$/, 'must be a bank’s code from GET /v1/banks, e.g. 058')
    .nullish(),
  network: z
    .string({ error: 'must be a string' })
    .regex(/^[a-z0-9_]{1,64}$/, 'must be a network_id from GET /v1/crossborder/networks, e.g. gh_mtn_momo')
    .nullish(),
  accountNumber: accountNumberField,
});
export type ResolveAccountCommand = Command<typeof resolveAccountSchema>;

/** Who an account resolution asks, and about what: the country and its network (none for a bank listed by code only). */
export interface AccountTarget {
  country: Country;
  network: Network | undefined;
  route: Route;
  bankCode: string | null;
  accountNumber: string;
  msisdn: string | null;
}

const bad = AppError.invalidField;

/**
 * Banks by their local codes and account holders' names (CONTRACT §6b): the bank list, account resolution through
 * the route's connector that can name holders, and a transfer's beneficiary name check.
 */
export class PayeesService {
  constructor(private readonly deps: { reference: ReferenceService; rails: Rails }) {}

  /** GET /v1/banks: a country's banks and wallets, each with what can be done with it here. */
  listBanks(command: BanksQuery): BankListing[] {
    return this.deps.reference.lookupBanks(command).map((bank) => ({ ...bank, methods: this.methods(bank) }));
  }

  private methods(bank: Bank): BankMethod[] {
    const network = bank.networkId ? this.deps.reference.network(bank.networkId) : undefined;
    const route = (direction: 'transfer' | 'collection'): Route => this.routeOf(bank.countryCode, network, bank.code, direction);
    const methods: BankMethod[] = [];
    if (network && this.deps.rails.router.serves(route('transfer'))) methods.push('transfer');
    if (network && this.deps.rails.router.serves(route('collection'))) methods.push('collection');
    if (this.deps.rails.router.resolvers(route('transfer'), bank.code).length > 0) methods.push('account_resolution');
    return methods;
  }

  private routeOf(countryCode: string, network: Network | undefined, bankCode: string | null, direction: 'transfer' | 'collection'): Route {
    return { countryCode, channelType: network?.channelType ?? 'bank', networkCode: network?.code ?? bankCode, direction };
  }

  /** POST /v1/accounts/resolve: the holder's name, as the provider that can tell says it. */
  async resolveAccount(command: ResolveAccountCommand): Promise<{ accountName: string }> {
    return { accountName: await this.holderName(this.accountTarget(command)) };
  }

  /** A resolution request read (400 naming the field), without asking anyone: payout destinations check it further first. */
  accountTarget(command: ResolveAccountCommand): AccountTarget {
    const body = parseInput(resolveAccountSchema, command);
    const country = this.deps.reference.country(body.country);
    if (!country) throw bad('country', 'is not a supported country');
    const { bankCode, network } = body;
    if ((bankCode == null) === (network == null)) throw bad('bankCode', 'give either bank_code (a bank) or network (a wallet), not both');
    return bankCode != null ? this.bankTarget(country, bankCode, body.accountNumber) : this.networkTarget(country, network!, body.accountNumber);
  }

  /** The holder's name, as the provider that can tell says it. */
  async holderName(target: AccountTarget): Promise<string> {
    const connector = this.resolver(target);
    if (!connector)
      throw new AppError(
        'ROUTE_UNAVAILABLE',
        `No provider here can name the holder of an account at this ${target.route.channelType === 'momo' ? 'network' : 'bank'}`,
      );
    return this.ask(connector, target);
  }

  private bankTarget(country: Country, code: string, accountNumber: string): AccountTarget {
    const bank = this.deps.reference.bank(country.code, code);
    if (!bank) throw bad('bankCode', `is not a bank of ${country.code} (GET /v1/banks?country=${country.code})`);
    const network = bank.networkId ? this.deps.reference.network(bank.networkId) : undefined;
    if (network?.channelType === 'momo') return this.walletTarget(country, network, accountNumber, bank.code);
    if (!BANK_ACCOUNT_NUMBER.test(accountNumber)) throw bad('accountNumber', 'must be 4 to 34 letters or digits (a bank account number)');
    return { country, network, route: this.routeOf(country.code, network, bank.code, 'transfer'), bankCode: bank.code, accountNumber, msisdn: null };
  }

  private networkTarget(country: Country, networkId: string, accountNumber: string): AccountTarget {
    const network = this.deps.reference.network(networkId);
    if (!network || network.countryCode !== country.code) throw bad('network', `must be a network of ${country.code} (GET /v1/crossborder/networks)`);
    if (network.channelType === 'momo') return this.walletTarget(country, network, accountNumber, network.localCode);
    if (!BANK_ACCOUNT_NUMBER.test(accountNumber)) throw bad('accountNumber', 'must be 4 to 34 letters or digits (a bank account number)');
    return this.bankAccountTarget(country, network, accountNumber);
  }

  /** A bank account at a bank network, reached as a payout to it would be. */
  private bankAccountTarget(country: Country, network: Network, accountNumber: string): AccountTarget {
    return {
      country,
      network,
      route: this.routeOf(country.code, network, network.localCode, 'transfer'),
      bankCode: network.localCode,
      accountNumber,
      msisdn: null,
    };
  }

  private walletTarget(country: Country, network: Network, accountNumber: string, bankCode: string | null): AccountTarget {
    const national = requireNationalNumber(accountNumber, country.dialCode, 'accountNumber', 'wallet');
    return {
      country,
      network,
      route: this.routeOf(country.code, network, bankCode, 'transfer'),
      bankCode,
      accountNumber: national,
      msisdn: msisdn(country.dialCode, national),
    };
  }

  /** The first of the route's resolvers whose breaker is closed (else half-open); null: none here. */
  private resolver(target: AccountTarget): GuardedConnector | null {
    const list = this.deps.rails.router.resolvers(target.route, target.bankCode);
    if (list.length === 0) return null;
    const connector = list.find((c) => c.state === 'closed') ?? list.find((c) => !c.isOpen);
    if (!connector) throw new AppError('PROVIDER_UNAVAILABLE', 'The provider that names account holders is not answering right now; try again shortly');
    return connector;
  }

  /** NOT_FOUND as the provider says it; anything else but a name is PROVIDER_UNAVAILABLE. */
  private async ask(connector: GuardedConnector, target: AccountTarget): Promise<string> {
    try {
      const { accountName } = await connector.resolveAccount!({
        route: target.route,
        bankCode: target.bankCode,
        accountNumber: target.accountNumber,
        msisdn: target.msisdn,
      });
      return accountName;
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND')
        throw new AppError('NOT_FOUND', 'No account with this number exists there (the provider says so)');
      if (err instanceof AppError && err.code === 'PROVIDER_UNAVAILABLE') throw err;
      throw new AppError('PROVIDER_UNAVAILABLE', 'The provider could not say who holds this account right now; try again shortly');
    }
  }

  /**
   * A transfer's beneficiary name check, before anything is written or sent: skipped when no connector of the route
   * names holders; 422 BENEFICIARY_NAME_MISMATCH when the names differ by the rule (name-match.ts); 404 when the
   * account does not exist; 503 when the provider cannot answer (a transfer is not sent unchecked).
   */
  async checkBeneficiaryName(country: Country, networkId: string, accountNumber: string, beneficiaryName: string): Promise<'matched' | 'skipped'> {
    const network = this.deps.reference.network(networkId)!;
    const target =
      network.channelType === 'momo'
        ? this.walletTarget(country, network, accountNumber, network.localCode)
        : this.bankAccountTarget(country, network, accountNumber);
    const connector = this.resolver(target);
    if (!connector) return 'skipped';
    const resolved = await this.ask(connector, target);
    if (!namesMatch(beneficiaryName, resolved)) {
      throw new AppError(
        'BENEFICIARY_NAME_MISMATCH',
        `The account is held in another name than beneficiary_name (the provider says "${resolved}"); nothing was written or sent`,
      );
    }
    return 'matched';
  }
}
