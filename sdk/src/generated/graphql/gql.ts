/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "fragment TransactionFields on Transaction {\n  reference\n  externalReference\n  type\n  status\n  failureReason\n  amount\n  currency\n  sourceAmount\n  sourceCurrency\n  destinationAmount\n  destinationCurrency\n  rate\n  fee\n  accountType\n  customerUuid\n  bankInfo {\n    accountName\n    accountNumber\n    bankName\n    bankCode\n  }\n  nextAction {\n    type\n    url\n    expiresAt\n  }\n  createdAt\n  updatedAt\n  completedAt\n}\n\nquery TransactionByReference($reference: String!) {\n  transaction(reference: $reference) {\n    ...TransactionFields\n  }\n}\n\nquery Transactions($first: Int, $after: String, $filter: TransactionFilter) {\n  transactions(first: $first, after: $after, filter: $filter) {\n    edges {\n      cursor\n      node {\n        ...TransactionFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nmutation InitiateCollection($input: InitiateCollectionInput!) {\n  initiateCollection(input: $input) {\n    ...TransactionFields\n  }\n}\n\nmutation InitiateTransfer($input: InitiateTransferInput!) {\n  initiateTransfer(input: $input) {\n    ...TransactionFields\n  }\n}\n\nsubscription TransactionStatusChanged($reference: String) {\n  transactionStatusChanged(reference: $reference) {\n    ...TransactionFields\n  }\n}": typeof types.TransactionFieldsFragmentDoc,
};
const documents: Documents = {
    "fragment TransactionFields on Transaction {\n  reference\n  externalReference\n  type\n  status\n  failureReason\n  amount\n  currency\n  sourceAmount\n  sourceCurrency\n  destinationAmount\n  destinationCurrency\n  rate\n  fee\n  accountType\n  customerUuid\n  bankInfo {\n    accountName\n    accountNumber\n    bankName\n    bankCode\n  }\n  nextAction {\n    type\n    url\n    expiresAt\n  }\n  createdAt\n  updatedAt\n  completedAt\n}\n\nquery TransactionByReference($reference: String!) {\n  transaction(reference: $reference) {\n    ...TransactionFields\n  }\n}\n\nquery Transactions($first: Int, $after: String, $filter: TransactionFilter) {\n  transactions(first: $first, after: $after, filter: $filter) {\n    edges {\n      cursor\n      node {\n        ...TransactionFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nmutation InitiateCollection($input: InitiateCollectionInput!) {\n  initiateCollection(input: $input) {\n    ...TransactionFields\n  }\n}\n\nmutation InitiateTransfer($input: InitiateTransferInput!) {\n  initiateTransfer(input: $input) {\n    ...TransactionFields\n  }\n}\n\nsubscription TransactionStatusChanged($reference: String) {\n  transactionStatusChanged(reference: $reference) {\n    ...TransactionFields\n  }\n}": types.TransactionFieldsFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment TransactionFields on Transaction {\n  reference\n  externalReference\n  type\n  status\n  failureReason\n  amount\n  currency\n  sourceAmount\n  sourceCurrency\n  destinationAmount\n  destinationCurrency\n  rate\n  fee\n  accountType\n  customerUuid\n  bankInfo {\n    accountName\n    accountNumber\n    bankName\n    bankCode\n  }\n  nextAction {\n    type\n    url\n    expiresAt\n  }\n  createdAt\n  updatedAt\n  completedAt\n}\n\nquery TransactionByReference($reference: String!) {\n  transaction(reference: $reference) {\n    ...TransactionFields\n  }\n}\n\nquery Transactions($first: Int, $after: String, $filter: TransactionFilter) {\n  transactions(first: $first, after: $after, filter: $filter) {\n    edges {\n      cursor\n      node {\n        ...TransactionFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nmutation InitiateCollection($input: InitiateCollectionInput!) {\n  initiateCollection(input: $input) {\n    ...TransactionFields\n  }\n}\n\nmutation InitiateTransfer($input: InitiateTransferInput!) {\n  initiateTransfer(input: $input) {\n    ...TransactionFields\n  }\n}\n\nsubscription TransactionStatusChanged($reference: String) {\n  transactionStatusChanged(reference: $reference) {\n    ...TransactionFields\n  }\n}"): (typeof documents)["fragment TransactionFields on Transaction {\n  reference\n  externalReference\n  type\n  status\n  failureReason\n  amount\n  currency\n  sourceAmount\n  sourceCurrency\n  destinationAmount\n  destinationCurrency\n  rate\n  fee\n  accountType\n  customerUuid\n  bankInfo {\n    accountName\n    accountNumber\n    bankName\n    bankCode\n  }\n  nextAction {\n    type\n    url\n    expiresAt\n  }\n  createdAt\n  updatedAt\n  completedAt\n}\n\nquery TransactionByReference($reference: String!) {\n  transaction(reference: $reference) {\n    ...TransactionFields\n  }\n}\n\nquery Transactions($first: Int, $after: String, $filter: TransactionFilter) {\n  transactions(first: $first, after: $after, filter: $filter) {\n    edges {\n      cursor\n      node {\n        ...TransactionFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nmutation InitiateCollection($input: InitiateCollectionInput!) {\n  initiateCollection(input: $input) {\n    ...TransactionFields\n  }\n}\n\nmutation InitiateTransfer($input: InitiateTransferInput!) {\n  initiateTransfer(input: $input) {\n    ...TransactionFields\n  }\n}\n\nsubscription TransactionStatusChanged($reference: String) {\n  transactionStatusChanged(reference: $reference) {\n    ...TransactionFields\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;