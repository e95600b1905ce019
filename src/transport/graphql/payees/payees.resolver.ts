import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import type { PayeesService } from '../../../modules/payees/payees.service';
import { Requires, SIGNED_IN } from '../authorization';
import { auditOf, type GraphQLContext } from '../context';
import { BankObject, NameCheckObject, ResolveAccountInput, ResolvedAccountObject } from './payees.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payees: PayeesService; merchants: MerchantService };

/** Banks by their local codes, account holders' names, the name check setting: the same service calls as REST's. */
@Resolver()
export class PayeesResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires(SIGNED_IN)
  @Query(() => [BankObject], { description: 'A country’s banks and wallets by their local codes (GET /v1/banks). Unsupported country: NOT_FOUND.' })
  banks(@Arg('country', () => String) country: string): BankObject[] {
    return this.services.payees.listBanks({ country }).map(BankObject.from);
  }

  @Requires('payments:create')
  @Query(() => ResolvedAccountObject, {
    description:
      'The holder of a bank account or wallet, asked of the provider that can tell (POST /v1/accounts/resolve). NOT_FOUND: no such account; PROVIDER_UNAVAILABLE: no answer.',
  })
  async resolveAccount(@Arg('input', () => ResolveAccountInput) input: ResolveAccountInput): Promise<ResolvedAccountObject> {
    return Object.assign(new ResolvedAccountObject(), await this.services.payees.resolveAccount(input));
  }

  @Requires('transactions:read')
  @Query(() => NameCheckObject, { description: 'Whether your transfers’ beneficiaryName is checked.' })
  async nameCheck(@Ctx() ctx: GraphQLContext): Promise<NameCheckObject> {
    return Object.assign(new NameCheckObject(), { enabled: await this.services.merchants.nameCheck(ctx.auth.merchantId) });
  }

  @Requires('payments:create')
  @Mutation(() => NameCheckObject, { description: 'Turns the transfers’ beneficiary name check on or off (audited).' })
  async updateNameCheck(@Arg('enabled', () => Boolean) enabled: boolean, @Ctx() ctx: GraphQLContext): Promise<NameCheckObject> {
    return Object.assign(new NameCheckObject(), { enabled: await this.services.merchants.setNameCheck(ctx.auth.merchantId, { enabled }, auditOf(ctx)) });
  }
}
