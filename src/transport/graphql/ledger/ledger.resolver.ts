import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { PaymentsEnv } from '../../../config';
import type { LedgerService } from '../../../modules/ledger/ledger.service';
import type { RefundService } from '../../../modules/transactions/kinds/refund/refund.service';
import type { FundingService } from '../../../modules/transactions/kinds/funding/funding.service';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { AppError } from '../../../shared/errors';
import { auditOf, type GraphQLContext } from '../context';
import { toConnection } from '../relay';
import { DecimalScalar } from '../scalars';
import { TransactionObject } from '../transactions/transaction.types';
import {
  ActivityObject,
  BalanceObject,
  BalanceTransactionConnection,
  BalanceTransactionFilter,
  BalanceTransactionObject,
  FundBalanceInput,
  RefundPaymentInput,
} from './ledger.types';
import { Requires } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { ledger: LedgerService; reference: ReferenceService; refunds: RefundService; fundings: FundingService };

/** The books and refunds; the same service calls as /v1/balances, /v1/balance-transactions, /v1/refunds and the sandbox top-up. */
@Resolver()
export class LedgerResolver {
  private readonly services: UsedServices;
  private readonly env: PaymentsEnv;

  /** `env`: sandbox-only operations refuse elsewhere. */
  constructor({ services, env }: { services: UsedServices; env: PaymentsEnv }) {
    this.services = services;
    this.env = env;
  }

  @Requires('balances:read')
  @Query(() => [BalanceObject], { description: 'Your balances, one per currency.' })
  async balances(@Ctx() ctx: GraphQLContext): Promise<BalanceObject[]> {
    return (await this.services.ledger.balances(ctx.auth.merchantId)).map((b) => BalanceObject.from(b, this.services.reference));
  }

  @Requires('balances:read')
  @Query(() => BalanceTransactionConnection, { description: 'Every movement of your balance (available + pending), newest first.' })
  async balanceTransactions(
    @Ctx() ctx: GraphQLContext,
    @Arg('filter', () => BalanceTransactionFilter, { nullable: true }) filter?: BalanceTransactionFilter,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<BalanceTransactionConnection> {
    const page = await this.services.ledger.listBalanceTransactions(ctx.auth.merchantId, { ...filter, limit: first, after });
    return toConnection(page, (t) => BalanceTransactionObject.from(t, this.services.reference));
  }

  @Requires('transactions:read')
  @Query(() => ActivityObject, { description: 'The last `days` days (default 30): daily volume collected vs paid out, and the success rate.' })
  async activity(@Ctx() ctx: GraphQLContext, @Arg('days', () => Int, { nullable: true }) days?: number): Promise<ActivityObject> {
    return ActivityObject.from(await this.services.ledger.activity(ctx.auth.merchantId, days ?? 30), this.services.reference);
  }

  @Requires('refunds:create')
  @Mutation(() => TransactionObject, {
    description: 'Refund a successful card payment in full (amount omitted) or in part; reserved from your available balance.',
  })
  async refundPayment(@Arg('input', () => RefundPaymentInput) input: RefundPaymentInput, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return TransactionObject.from(await this.services.refunds.refundPayment(ctx.auth.merchantId, input, auditOf(ctx)), this.services.reference);
  }

  @Requires('balances:fund')
  @Mutation(() => TransactionObject, {
    description:
      'Fund your balance: a FUNDING transaction whose bankInfo is an account to pay into, open until expiresAt. What arrives is credited to your available balance, with no fee (POST /v1/balance/funding).',
  })
  async fundBalance(@Arg('input', () => FundBalanceInput) input: FundBalanceInput, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return TransactionObject.from(await this.services.fundings.createFunding(ctx.auth.merchantId, input, auditOf(ctx)), this.services.reference);
  }

  @Requires('balances:fund')
  @Mutation(() => BalanceObject, { description: 'Sandbox only: add test money to your available balance. In production it is NOT_FOUND, like the REST route.' })
  async topUpBalance(
    @Arg('currency', () => String) currency: string,
    @Arg('amount', () => DecimalScalar) amount: unknown,
    @Ctx() ctx: GraphQLContext,
  ): Promise<BalanceObject> {
    if (this.env !== 'sandbox') throw new AppError('NOT_FOUND', 'Sandbox top-ups are not available in production');
    return BalanceObject.from(await this.services.ledger.topUp(ctx.auth.merchantId, { currency, amount }, auditOf(ctx)), this.services.reference);
  }
}
