import { graphql } from '../generated';

/** The fields the dashboard shows of a transaction, in the list and as it changes live. */
graphql(`
  fragment TransactionFields on Transaction {
    reference
    externalReference
    type
    status
    failureReason
    amount
    currency
    sourceAmount
    sourceCurrency
    destinationAmount
    destinationCurrency
    customerUuid
    customer {
      firstName
      lastName
      email
    }
    counterparty {
      name
      account
    }
    accountType
    createdAt
    updatedAt
    completedAt
  }
`);

export const STATUS_CHANGED = graphql(`
  subscription TransactionChanged($r: String) {
    transactionStatusChanged(reference: $r) {
      ...TransactionFields
    }
  }
`);
