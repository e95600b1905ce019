/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Bank transfer or mobile money. */
export type ChannelType =
  | 'BANK'
  | 'MOMO';

export type InitiateCollectionInput = {
  /** MOMO: the wallet’s national number, without the dial code or a leading 0 (712345678 for +254); 0712345678, 254712345678 and +254 712 345 678 are accepted and stored as 712345678. BANK: 4 to 34 letters or digits, kept as given. */
  accountNumber: string;
  /** Must be the channel’s type. */
  accountType: ChannelType;
  /** In currency, within the channel’s bounds and the currency’s decimals. */
  amount: string;
  /** e.g. "ke_momo_deposit"; a DEPOSIT channel for collections, WITHDRAWAL for transfers. */
  channelId: string;
  /** ISO 3166-1 alpha-2 of the customer’s (collection) or beneficiary’s (transfer) country. */
  countryCode: string;
  /** The country’s currency, e.g. "KES". */
  currency: string;
  customerUuid: string;
  /** The country’s dial code, e.g. "+254". */
  dialCode: string;
  /** e.g. "ke_mpesa"; a network of the country and channel type. A bank collection’s virtual account is at that bank where the provider allows it (the sandbox; Flutterwave uses its own partner bank). */
  networkId: string;
  reason: string;
  /** Your own reference; unique across all your transactions. */
  reference: string;
};

export type InitiateTransferInput = {
  /** The beneficiary’s name. */
  accountName: string;
  /** MOMO: the wallet’s national number, without the dial code or a leading 0 (712345678 for +254); 0712345678, 254712345678 and +254 712 345 678 are accepted and stored as 712345678. BANK: 4 to 34 letters or digits, kept as given. */
  accountNumber: string;
  /** Must be the channel’s type. */
  accountType: ChannelType;
  /** What you send, in sourceCurrency. */
  amount: string;
  /** The name you expect the account to be held in: checked against the provider’s before anything is sent (BENEFICIARY_NAME_MISMATCH otherwise), unless you turned the name check off (CONTRACT §6b). */
  beneficiaryName?: string | null | undefined;
  /** e.g. "ke_momo_deposit"; a DEPOSIT channel for collections, WITHDRAWAL for transfers. */
  channelId: string;
  /** ISO 3166-1 alpha-2 of the customer’s (collection) or beneficiary’s (transfer) country. */
  countryCode: string;
  customerUuid: string;
  /** The destination country’s currency. */
  destinationCurrency: string;
  /** The country’s dial code, e.g. "+254". */
  dialCode: string;
  /** e.g. "ke_mpesa"; a network of the country and channel type. A bank collection’s virtual account is at that bank where the provider allows it (the sandbox; Flutterwave uses its own partner bank). */
  networkId: string;
  /** A live quote (from rate) for this pair and amount locks its rate. */
  quoteId?: string | null | undefined;
  reason: string;
  /** Your own reference; unique across all your transactions. */
  reference: string;
  sourceCurrency: string;
};

/** What the customer must do before a payment is decided. */
export type NextActionType =
  | 'REDIRECT_TO_URL';

/** Every given condition must hold. */
export type TransactionFilter = {
  /** Created at or after this time. */
  createdFrom?: string | null | undefined;
  /** Created before this time. */
  createdTo?: string | null | undefined;
  customerUuid?: string | null | undefined;
  /** Payments made on the checkout sessions this payment link (plink_…) opened. */
  paymentLinkId?: string | null | undefined;
  status?: TransactionStatus | null | undefined;
  type?: TransactionType | null | undefined;
};

/** INITIATING (recorded, the provider not yet answered; usually milliseconds) → PROCESSING | FAILED; PROCESSING → SUCCESSFUL | FAILED | EXPIRED; a final status never changes. Only a collection can expire. A card payment goes from INITIATING to SUCCESSFUL or FAILED at once, or to REQUIRES_ACTION (3-D Secure, see nextAction) and then SUCCESSFUL or FAILED (authentication_failed, or authentication_expired after the deadline). */
export type TransactionStatus =
  | 'EXPIRED'
  | 'FAILED'
  | 'INITIATING'
  | 'PROCESSING'
  | 'REQUIRES_ACTION'
  | 'SUCCESSFUL';

/** What kind of transaction it is. */
export type TransactionType =
  | 'COLLECTION'
  | 'FUNDING'
  | 'PAYMENT'
  | 'PAYOUT'
  | 'REFUND'
  | 'TRANSFER';

export type TransactionFieldsFragment = { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, rate: string | null, fee: string | null, accountType: ChannelType | null, customerUuid: string | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, nextAction: { type: NextActionType, url: string, expiresAt: string | null } | null };

export type TransactionByReferenceQueryVariables = Exact<{
  reference: string;
}>;


export type TransactionByReferenceQuery = { transaction: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, rate: string | null, fee: string | null, accountType: ChannelType | null, customerUuid: string | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, nextAction: { type: NextActionType, url: string, expiresAt: string | null } | null } };

export type TransactionsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: TransactionFilter | null | undefined;
}>;


export type TransactionsQuery = { transactions: { edges: Array<{ cursor: string, node: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, rate: string | null, fee: string | null, accountType: ChannelType | null, customerUuid: string | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, nextAction: { type: NextActionType, url: string, expiresAt: string | null } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type InitiateCollectionMutationVariables = Exact<{
  input: InitiateCollectionInput;
}>;


export type InitiateCollectionMutation = { initiateCollection: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, rate: string | null, fee: string | null, accountType: ChannelType | null, customerUuid: string | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, nextAction: { type: NextActionType, url: string, expiresAt: string | null } | null } };

export type InitiateTransferMutationVariables = Exact<{
  input: InitiateTransferInput;
}>;


export type InitiateTransferMutation = { initiateTransfer: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, rate: string | null, fee: string | null, accountType: ChannelType | null, customerUuid: string | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, nextAction: { type: NextActionType, url: string, expiresAt: string | null } | null } };

export type TransactionStatusChangedSubscriptionVariables = Exact<{
  reference?: string | null | undefined;
}>;


export type TransactionStatusChangedSubscription = { transactionStatusChanged: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, rate: string | null, fee: string | null, accountType: ChannelType | null, customerUuid: string | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, nextAction: { type: NextActionType, url: string, expiresAt: string | null } | null } };

export const TransactionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TransactionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"sourceAmount"}},{"kind":"Field","name":{"kind":"Name","value":"sourceCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"destinationAmount"}},{"kind":"Field","name":{"kind":"Name","value":"destinationCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"customerUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bankInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountName"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]} as unknown as DocumentNode<TransactionFieldsFragment, unknown>;
export const TransactionByReferenceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TransactionByReference"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transaction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TransactionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TransactionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"sourceAmount"}},{"kind":"Field","name":{"kind":"Name","value":"sourceCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"destinationAmount"}},{"kind":"Field","name":{"kind":"Name","value":"destinationCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"customerUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bankInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountName"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]} as unknown as DocumentNode<TransactionByReferenceQuery, TransactionByReferenceQueryVariables>;
export const TransactionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Transactions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TransactionFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TransactionFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TransactionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"sourceAmount"}},{"kind":"Field","name":{"kind":"Name","value":"sourceCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"destinationAmount"}},{"kind":"Field","name":{"kind":"Name","value":"destinationCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"customerUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bankInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountName"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]} as unknown as DocumentNode<TransactionsQuery, TransactionsQueryVariables>;
export const InitiateCollectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"InitiateCollection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InitiateCollectionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"initiateCollection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TransactionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TransactionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"sourceAmount"}},{"kind":"Field","name":{"kind":"Name","value":"sourceCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"destinationAmount"}},{"kind":"Field","name":{"kind":"Name","value":"destinationCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"customerUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bankInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountName"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]} as unknown as DocumentNode<InitiateCollectionMutation, InitiateCollectionMutationVariables>;
export const InitiateTransferDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"InitiateTransfer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InitiateTransferInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"initiateTransfer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TransactionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TransactionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"sourceAmount"}},{"kind":"Field","name":{"kind":"Name","value":"sourceCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"destinationAmount"}},{"kind":"Field","name":{"kind":"Name","value":"destinationCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"customerUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bankInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountName"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]} as unknown as DocumentNode<InitiateTransferMutation, InitiateTransferMutationVariables>;
export const TransactionStatusChangedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TransactionStatusChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionStatusChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TransactionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TransactionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Transaction"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"externalReference"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"sourceAmount"}},{"kind":"Field","name":{"kind":"Name","value":"sourceCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"destinationAmount"}},{"kind":"Field","name":{"kind":"Name","value":"destinationCurrency"}},{"kind":"Field","name":{"kind":"Name","value":"rate"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"customerUuid"}},{"kind":"Field","name":{"kind":"Name","value":"bankInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountName"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}}]} as unknown as DocumentNode<TransactionStatusChangedSubscription, TransactionStatusChangedSubscriptionVariables>;