import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { PaymentsEnv } from '../../../config';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import type { CollectionService } from '../../../modules/transactions/collection.service';
import type { TransactionService, SimulationOutcome } from '../../../modules/transactions/transaction.service';
import type { TransferService } from '../../../modules/transactions/transfer.service';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import { AppError } from '../../../shared/errors';
import { SimulationOutcomeEnum } from '../enums';
import type { GraphQLContext } from '../context';
import { toConnection } from '../relay';
import {
  InitiateCollectionInput,
  InitiateTransferInput,
  TransactionConnection,
  TransactionFilter,
  TransactionStatusChangeObject,
  TransactionObject,
} from './transaction.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { collections: CollectionService; reference: ReferenceService; transactions: TransactionService; transfers: TransferService };

/** Cross-border collections and transfers; the same service calls as /v1/crossborder/global-* and /v1/sandbox. */
@Resolver(() => TransactionObject)
export class TransactionResolver {
  constructor(
    private readonly services: UsedServices,
    private readonly env: PaymentsEnv,
  ) {}

  @Query(() => TransactionObject, { description: 'One of your transactions, by the service’s reference or your own (externalReference).' })
  async transaction(@Arg('reference', () => String) reference: string, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
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
      ...filter,
      limit: first,
      after,
    });
    return toConnection(page, (t) => this.toType(t));
  }

  @Mutation(() => TransactionObject, { description: 'Collect from a KYC-approved customer by bank transfer (bankInfo) or mobile money (a prompt).' })
  async initiateCollection(
    @Arg('input', () => InitiateCollectionInput) input: InitiateCollectionInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionObject> {
    return this.toType(await this.services.collections.initiateCollection(ctx.auth.merchantId, input));
  }

  @Mutation(() => TransactionObject, { description: 'Send funds to a beneficiary, converted at the current rate or a locked quote.' })
  async initiateTransfer(@Arg('input', () => InitiateTransferInput) input: InitiateTransferInput, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return this.toType(await this.services.transfers.initiateTransfer(ctx.auth.merchantId, input));
  }

  @Mutation(() => TransactionObject, { description: 'Sandbox only: decide a processing transaction now. In production it is NOT_FOUND, like the REST route.' })
  async simulateTransaction(
    @Arg('reference', () => String) reference: string,
    @Arg('outcome', () => SimulationOutcomeEnum) outcome: SimulationOutcome,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionObject> {
    if (this.env !== 'sandbox') throw new AppError('NOT_FOUND', 'Sandbox simulation is not available in production');
    return this.toType(await this.services.transactions.simulate(ctx.auth.merchantId, reference, { outcome }));
  }

  @FieldResolver(() => [TransactionStatusChangeObject], { description: 'Every status change, oldest first.' })
  async history(@Root() transaction: TransactionObject): Promise<TransactionStatusChangeObject[]> {
    return (await this.services.transactions.history(transaction.transactionId)).map(TransactionStatusChangeObject.from);
  }

  private toType(t: Transaction): TransactionObject {
    return TransactionObject.from(t, this.services.reference);
  }
}
