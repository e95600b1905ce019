import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { PaymentsEnv } from '../../../config';
import type { Services } from '../../../container';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import { AppError } from '../../../shared/errors';
import type { GraphQLContext } from '../context';
import { toConnection } from '../relay';
import {
  InitiateCollectionInput,
  InitiateTransferInput,
  SimulationOutcomeValue,
  TransactionConnection,
  TransactionFilter,
  TransactionStatusChangeType,
  TransactionType,
} from './transaction.types';

/** Cross-border collections and transfers; the same service calls as /v1/crossborder/global-* and /v1/sandbox. */
@Resolver(() => TransactionType)
export class TransactionResolver {
  constructor(
    private readonly services: Services,
    private readonly env: PaymentsEnv,
  ) {}

  @Query(() => TransactionType, { description: 'One of your transactions, by the service’s reference or your own (externalReference).' })
  async transaction(@Arg('reference', () => String) reference: string, @Ctx() ctx: GraphQLContext): Promise<TransactionType> {
    return this.toType(await this.services.transactions.getTransaction(ctx.auth.merchantId, reference));
  }

  @Query(() => TransactionConnection, { description: 'Your transactions, newest first.' })
  async transactions(
    @Ctx() ctx: GraphQLContext,
    @Arg('filter', () => TransactionFilter, { nullable: true }) filter?: TransactionFilter,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<TransactionConnection> {
    const page = await this.services.transactions.listTransactions(ctx.auth.merchantId, {
      ...filter?.toServiceInput(),
      limit: first ?? undefined,
      after: after ?? undefined,
    });
    return toConnection(page, (t) => this.toType(t));
  }

  @Mutation(() => TransactionType, { description: 'Collect from a KYC-approved customer by bank transfer (bankInfo) or mobile money (a prompt).' })
  async initiateCollection(@Arg('input', () => InitiateCollectionInput) input: InitiateCollectionInput, @Ctx() ctx: GraphQLContext): Promise<TransactionType> {
    return this.toType(await this.services.collections.initiateCollection(ctx.auth.merchantId, input.toServiceInput()));
  }

  @Mutation(() => TransactionType, { description: 'Send funds to a beneficiary, converted at the current rate or a locked quote.' })
  async initiateTransfer(@Arg('input', () => InitiateTransferInput) input: InitiateTransferInput, @Ctx() ctx: GraphQLContext): Promise<TransactionType> {
    return this.toType(await this.services.transfers.initiateTransfer(ctx.auth.merchantId, input.toServiceInput()));
  }

  @Mutation(() => TransactionType, { description: 'Sandbox only: decide a processing transaction now. In production it is NOT_FOUND, like the REST route.' })
  async simulateTransaction(
    @Arg('reference', () => String) reference: string,
    @Arg('outcome', () => SimulationOutcomeValue) outcome: SimulationOutcomeValue,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionType> {
    if (this.env !== 'sandbox') throw new AppError('NOT_FOUND', 'Sandbox simulation is not available in production');
    return this.toType(await this.services.transactions.simulate(ctx.auth.merchantId, reference, { outcome }));
  }

  @FieldResolver(() => [TransactionStatusChangeType], { description: 'Every status change, oldest first.' })
  async history(@Root() transaction: TransactionType): Promise<TransactionStatusChangeType[]> {
    return (await this.services.transactions.history(transaction.transactionId)).map(TransactionStatusChangeType.from);
  }

  private toType(t: Transaction): TransactionType {
    return TransactionType.from(t, this.services.reference);
  }
}
