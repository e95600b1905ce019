import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { PaymentsEnv } from '../../../config';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import type { CustomerService } from '../../../modules/customers/customer.service';
import type { CollectionService } from '../../../modules/transactions/kinds/collection/collection.service';
import type { TransactionLifecycle, SimulationOutcome } from '../../../modules/transactions/lifecycle.service';
import type { TransactionQueries } from '../../../modules/transactions/queries.service';
import type { TransferService } from '../../../modules/transactions/kinds/transfer/transfer.service';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import { counterpartyIsCustomer, counterpartyOf } from '../../../modules/transactions/counterparty';
import { AppError } from '../../../shared/errors';
import { SimulationOutcomeEnum } from '../enums';
import type { GraphQLContext } from '../context';
import { toConnection } from '../relay';
import { batchedPerOperation } from '../batch';
import { CustomerObject } from '../customers/customer.types';
import {
  InitiateCollectionInput,
  InitiateTransferInput,
  TransactionConnection,
  TransactionFilter,
  TransactionStatusChangeObject,
  TransactionObject,
  CounterpartyObject,
} from './transaction.types';
import { Requires } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = {
  collections: CollectionService;
  customers: CustomerService;
  reference: ReferenceService;
  transactions: TransactionLifecycle;
  transactionQueries: TransactionQueries;
  transfers: TransferService;
};

/** Cross-border collections and transfers; the same service calls as /v1/crossborder/global-* and /v1/sandbox. */
@Resolver(() => TransactionObject)
export class TransactionResolver {
  /** The customers of a page of transactions, read together (one query per operation and tick, not one per row). */
  private readonly customerOf = batchedPerOperation(async (ctx, ids: string[]) => {
    const customers = await this.services.customers.customersByIds(ctx.auth.merchantId, ids);
    return new Map(customers.map((c) => [c.id, c]));
  });

  private readonly services: UsedServices;
  private readonly env: PaymentsEnv;

  /** `env`: sandbox-only operations refuse elsewhere. */
  constructor({ services, env }: { services: UsedServices; env: PaymentsEnv }) {
    this.services = services;
    this.env = env;
  }

  @Requires('transactions:read')
  @Query(() => TransactionObject, { description: 'One of your transactions, by the service’s reference or your own (externalReference).' })
  async transaction(@Arg('reference', () => String) reference: string, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return this.toType(await this.services.transactionQueries.getTransaction(ctx.auth.merchantId, reference));
  }

  @Requires('transactions:read')
  @Query(() => TransactionConnection, { description: 'Your transactions, newest first.' })
  async transactions(
    @Ctx() ctx: GraphQLContext,
    @Arg('filter', () => TransactionFilter, { nullable: true }) filter?: TransactionFilter,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('search', () => String, {
      nullable: true,
      description: 'Your reference or the service’s (exactly), or a customer’s email (any case); with the filter, both apply.',
    })
    search?: string,
  ): Promise<TransactionConnection> {
    const page = await this.services.transactionQueries.listTransactions(ctx.auth.merchantId, {
      ...filter,
      search,
      limit: first,
      after,
    });
    return toConnection(page, (t) => this.toType(t));
  }

  @Requires('payments:create')
  @Mutation(() => TransactionObject, { description: 'Collect from a KYC-approved customer by bank transfer (bankInfo) or mobile money (a prompt).' })
  async initiateCollection(
    @Arg('input', () => InitiateCollectionInput) input: InitiateCollectionInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionObject> {
    return this.toType(await this.services.collections.initiateCollection(ctx.auth.merchantId, input));
  }

  @Requires('payments:create')
  @Mutation(() => TransactionObject, { description: 'Send funds to a beneficiary, converted at the current rate or a locked quote.' })
  async initiateTransfer(@Arg('input', () => InitiateTransferInput) input: InitiateTransferInput, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return this.toType(await this.services.transfers.initiateTransfer(ctx.auth.merchantId, input));
  }

  @Requires('payments:create')
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
    return (await this.services.transactionQueries.history(transaction.transactionId)).map(TransactionStatusChangeObject.from);
  }

  @FieldResolver(() => CustomerObject, { nullable: true, description: 'Who pays (collection) or receives (transfer); null for card payments and refunds.' })
  async customer(@Root() transaction: TransactionObject, @Ctx() ctx: GraphQLContext): Promise<CustomerObject | null> {
    const customer = transaction.customerUuid ? await this.customerOf(ctx, transaction.customerUuid) : undefined;
    return customer ? CustomerObject.from(customer) : null;
  }

  @FieldResolver(() => CounterpartyObject, {
    description:
      'Who is on the other side, its account masked: a transfer’s beneficiary or a payout’s destination, a collection’s or payment’s sender (your customer), a refund’s payer.',
  })
  async counterparty(@Root() transaction: TransactionObject, @Ctx() ctx: GraphQLContext): Promise<CounterpartyObject> {
    const { record } = transaction;
    const customer = record.customerId && counterpartyIsCustomer(record.kind) ? await this.customerOf(ctx, record.customerId) : undefined;
    return CounterpartyObject.from(counterpartyOf(record, customer));
  }

  private toType(t: Transaction): TransactionObject {
    return TransactionObject.from(t, this.services.reference);
  }
}
