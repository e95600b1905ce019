import { defineRecord, text } from '../../shared/record-definition';
import type { Transaction } from './transaction.record';
import type { TransactionKind } from './transaction.state';

/*
 * Who is on the other side of a transaction, as the dashboard's list and detail and the CSV export show it:
 * the money's destination for money out (a transfer's beneficiary, a payout's own account), its source for
 * money in (a collection's or a payment's sender: the merchant's customer). Accounts are masked wherever one
 * is shown for reading rather than for paying into.
 */

/** An account for display: its last four characters, the rest hidden (`••••0031`); never the whole number. */
export const maskAccount = (accountNumber: string) => `••••${accountNumber.slice(-4)}`;

/** A person as the merchant enrolled them. */
interface PersonName {
  firstName: string;
  lastName: string;
}

/** "Amina Otieno". */
export const fullName = (person: PersonName) => `${person.firstName} ${person.lastName}`;

export interface Counterparty {
  name: string | null;
  /** Masked (maskAccount). */
  account: string | null;
}

/** The kinds whose counterparty is the account the money goes to (or, a funding, comes in by), held by `accountName`, not the customer. */
const PAID_TO_AN_ACCOUNT: ReadonlySet<TransactionKind> = new Set(['transfer', 'payout', 'funding']);

/** Whether a kind's counterparty is its customer (whose name the caller reads, a batch at a time). */
export const counterpartyIsCustomer = (kind: TransactionKind) => !PAID_TO_AN_ACCOUNT.has(kind);

/**
 * A transaction's counterparty. `customer`: its customer, read by the caller where counterpartyIsCustomer
 * (undefined when it has none, or it is gone).
 * - transfer: the beneficiary; payout: the merchant's own destination (the holder's name, the account);
 * - collection: the sender, the customer, from its wallet or bank account;
 * - payment: the payer, its customer if it named one, with the card's last four or the wallet (a bank
 *   transfer's payer is known by name only);
 * - refund: the payment's payer, by name (the money goes back the way it came);
 * - funding: the merchant itself, by the account it pays into (opened in its name).
 */
export function counterpartyOf(t: Transaction, customer: PersonName | undefined): Counterparty {
  if (t.kind === 'transfer' || t.kind === 'payout') return { name: t.accountName, account: maskAccount(t.accountNumber) };
  const name = customer ? fullName(customer) : null;
  switch (t.kind) {
    case 'collection':
      return { name, account: maskAccount(t.accountNumber) };
    case 'payment': {
      const account = t.cardLast4 ?? t.accountNumber;
      return { name, account: account === null ? null : maskAccount(account) };
    }
    case 'refund':
      return { name, account: null };
    case 'funding':
      // The merchant itself, paying into the account opened in its name.
      return { name: t.accountName, account: t.virtualAccountNumber === null ? null : maskAccount(t.virtualAccountNumber) };
  }
}

/** Its GraphQL type (Transaction.counterparty). */
export const COUNTERPARTY = defineRecord<Counterparty>()({
  name: 'Counterparty',
  description:
    'Who is on the other side of a transaction: a transfer’s beneficiary, a payout’s destination, a collection’s or payment’s sender (your customer), a refund’s payer.',
  fields: {
    name: { type: text, nullable: true, description: 'The beneficiary’s or destination’s account name; the customer’s name otherwise (null without one).' },
    account: {
      type: text,
      nullable: true,
      description: 'The account, masked: its last four characters (••••0031), a card payment’s card (••••4242); null for refunds and bank transfer payments.',
    },
  },
});
