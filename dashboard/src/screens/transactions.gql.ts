/** The fields the dashboard shows of a transaction, in the list and as it changes live. */
export const TRANSACTION_FIELDS = `reference externalReference type status failureReason amount currency sourceAmount sourceCurrency
  destinationAmount destinationCurrency customerUuid accountType createdAt updatedAt completedAt`;

export const STATUS_CHANGED = `subscription($r: String) { transactionStatusChanged(reference: $r) { ${TRANSACTION_FIELDS} } }`;
