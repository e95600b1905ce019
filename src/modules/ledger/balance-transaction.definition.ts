import { currencyCode, defineRecord, enumOf, money, restView, text, timestamp } from '../../shared/record-definition';
import { BALANCE_TRANSACTION_TYPES } from './ledger.model';
import type { BalanceTransaction } from './ledger.service';

/*
 * One movement of a merchant's available + pending, defined once (docs/design.md, "One
 * definition per record"): the REST record and its serializer (ledger.serializer.ts; a
 * statement's entries too) and the GraphQL BalanceTransaction type come from it.
 */
const inItsCurrency = money((t: BalanceTransaction) => t.currency);

export const BALANCE_TRANSACTION = defineRecord<BalanceTransaction>()({
  name: 'BalanceTransaction',
  description: 'One movement of available + pending: net = amount − fee; balanceAfter follows it.',
  fields: {
    id: { type: text },
    type: { type: enumOf(BALANCE_TRANSACTION_TYPES, 'BalanceTransactionType') },
    currency: { type: currencyCode },
    amount: {
      type: inItsCurrency,
      description: 'What moved before the fee; negative for money out.',
      rest: { description: 'What moved before the fee; negative for money out' },
    },
    fee: { type: inItsCurrency },
    net: { type: inItsCurrency, rest: { description: 'amount − fee: what available + pending changed by' } },
    balanceAfter: { type: inItsCurrency, rest: { description: 'available + pending after it' } },
    sourceReference: {
      type: text,
      nullable: true,
      description: 'The transaction (or adjustment) it comes from.',
      rest: { description: 'The transaction (or adjustment) it comes from' },
    },
    externalReference: {
      type: text,
      nullable: true,
      description: 'Your own reference of that transaction (a dispute’s: the disputed payment’s); null for top-ups and adjustments.',
      rest: { description: 'Your own reference of that transaction (a dispute’s: the disputed payment’s); null for top-ups and adjustments' },
    },
    createdAt: { type: timestamp },
  },
});

export const BalanceTransactionRest = restView(BALANCE_TRANSACTION, {
  id: 'BalanceTransaction',
  fields: ['id', 'type', 'currency', 'amount', 'fee', 'net', 'balanceAfter', 'sourceReference', 'externalReference', 'createdAt'],
});
