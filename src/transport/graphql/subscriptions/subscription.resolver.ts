import { Arg, Resolver, Root, Subscription } from 'type-graphql';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import type { KycRecord } from '../../../modules/kyc/kyc.service';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import type { TransactionStatus } from '../../../modules/transactions/transaction.state';
import { TransactionStatusEnum } from '../enums';
import { AppError } from '../../../shared/errors';
import type { GraphQLContext } from '../context';
import { KycObject } from '../customers/customer.types';
import { BalanceObject } from '../ledger/ledger.types';
import type { Balance } from '../../../modules/ledger/ledger.service';
import { TransactionObject } from '../transactions/transaction.types';
import { DisputeObject } from '../disputes/dispute.types';
import type { Dispute } from '../../../modules/disputes/dispute.record';
import type { RecordedEvent } from '../../../modules/webhooks/event-feed';
import { RecordedEventObject } from '../webhooks/webhook.types';
import { Requires } from '../authorization';
import { assertPermitted, type Permission } from '../../../modules/access/permissions';

/** The services this file calls (the composition root passes them). */
type UsedServices = { reference: ReferenceService };

/** Subscriptions exist only over the WebSocket, whose context carries the subscription service. */
function streams(context: GraphQLContext) {
  if (!context.subscriptions) throw AppError.invalidRequest('Subscriptions are served over the WebSocket at /graphql (graphql-transport-ws)');
  return context.subscriptions;
}

/** The streams of a caller whose role may read them: checked when the subscription starts (the field's check runs per event). */
function permitted(context: GraphQLContext, permission: Permission) {
  assertPermitted(context.auth, permission);
  return streams(context);
}

@Resolver()
export class SubscriptionResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('transactions:read')
  @Subscription(() => TransactionObject, {
    description:
      'Your transactions as they change (one, by reference or external reference, or all when omitted), after each change commits: its creation (PROCESSING, or REQUIRES_ACTION for a card payment awaiting 3-D Secure) and its final status. `statuses` keeps only those, e.g. [SUCCESSFUL, FAILED, EXPIRED] for final statuses only.',
    subscribe: ({ args, context }) =>
      permitted(context as GraphQLContext, 'transactions:read').transactionChanges((context as GraphQLContext).auth.merchantId, args.reference, args.statuses),
  })
  transactionStatusChanged(
    @Root() transaction: Transaction,
    @Arg('reference', () => String, { nullable: true }) _reference?: string,
    @Arg('statuses', () => [TransactionStatusEnum], { nullable: true, description: 'Only changes to these statuses; every change when omitted.' })
    _statuses?: TransactionStatus[] | null,
  ): TransactionObject {
    return TransactionObject.from(transaction, this.services.reference);
  }

  @Requires('customers:read')
  @Subscription(() => KycObject, {
    description: 'KYC status changes of your customers (one, or all when omitted), after they commit.',
    subscribe: ({ args, context }) =>
      permitted(context as GraphQLContext, 'customers:read').kycChanges((context as GraphQLContext).auth.merchantId, args.customerUuid),
  })
  kycStatusChanged(@Root() record: KycRecord, @Arg('customerUuid', () => String, { nullable: true }) _customerUuid?: string): KycObject {
    return KycObject.from(record);
  }

  @Requires('disputes:read')
  @Subscription(() => DisputeObject, {
    description: 'Your disputes as they change (opened, answered, decided, reminded), after each change commits.',
    subscribe: ({ context }) => permitted(context as GraphQLContext, 'disputes:read').disputeChanges((context as GraphQLContext).auth.merchantId),
  })
  disputeChanged(@Root() dispute: Dispute): DisputeObject {
    return DisputeObject.from(dispute, this.services.reference);
  }

  @Requires('webhooks:read')
  @Subscription(() => RecordedEventObject, {
    description:
      'Your events as they are recorded (the event log webhooks deliver; only the types you chose, CONTRACT §8), each with the webhook body a delivery of it carries, byte for byte: what `payments-gateway listen` signs with its local secret and POSTs to your local URL. `types` keeps only those (see webhookEventTypes). It starts with the events recorded after it starts, and never changes your webhook endpoint.',
    subscribe: ({ args, context }) =>
      permitted(context as GraphQLContext, 'webhooks:read').recordedEvents((context as GraphQLContext).auth.merchantId, args.types),
  })
  eventRecorded(
    @Root() event: RecordedEvent,
    @Arg('types', () => [String], { nullable: true, description: 'Only events of these types, e.g. ["collection.successful"]; every type when omitted.' })
    _types?: string[] | null,
  ): RecordedEventObject {
    return RecordedEventObject.from(event);
  }

  @Requires('balances:read')
  @Subscription(() => BalanceObject, {
    description: 'Your balance in a currency (one, or every one when omitted), each time it changes, after the change commits.',
    subscribe: ({ args, context }) =>
      permitted(context as GraphQLContext, 'balances:read').balanceChanges((context as GraphQLContext).auth.merchantId, args.currency),
  })
  balanceChanged(@Root() balance: Balance, @Arg('currency', () => String, { nullable: true }) _currency?: string): BalanceObject {
    return BalanceObject.from(balance, this.services.reference);
  }
}
