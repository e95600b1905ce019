/**
 * @payments-gateway/sdk: a typed client for the payments gateway's REST API (openapi-fetch over the
 * service's OpenAPI document), webhook verification, and typed GraphQL documents for any GraphQL client.
 */
export {
  createPaymentsClient,
  type CheckoutResource,
  type PaymentLinksResource,
  type PaymentsClient,
  type PaymentsClientOptions,
  type RequestOptions,
} from './client';
export { DEFAULT_RETRY_POLICY, IDEMPOTENCY_KEY, type RetryOptions } from './retries';
export {
  isCollection,
  isPayment,
  isPayout,
  isFunding,
  isRefund,
  isTransfer,
  type Transaction,
  type TransactionGuard,
  type TransactionOfType,
  type TransactionType,
} from './transactions';
export { ApiError, unwrap, type ErrorCode, type ErrorEnvelope } from './errors';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType, type WebhookFailure, type WebhookHeaders } from './webhooks';
export type { components, operations, paths } from './generated/openapi';

/** The REST records (`Schemas['CollectionRecord']`, `Schemas['Transaction']`, …). */
export type Schemas = import('./generated/openapi').components['schemas'];

// GraphQL: TypedDocumentNodes (syntax trees) of sdk/src/graphql/*.graphql, their result and variable
// types, and every type of schema.graphql as `GraphQL.<Name>`.
export {
  InitiateCollectionDocument,
  InitiateTransferDocument,
  TransactionByReferenceDocument,
  TransactionStatusChangedDocument,
  TransactionsDocument,
  type InitiateCollectionMutation,
  type InitiateCollectionMutationVariables,
  type InitiateTransferMutation,
  type InitiateTransferMutationVariables,
  type TransactionByReferenceQuery,
  type TransactionByReferenceQueryVariables,
  type TransactionFieldsFragment,
  type TransactionStatusChangedSubscription,
  type TransactionStatusChangedSubscriptionVariables,
  type TransactionsQuery,
  type TransactionsQueryVariables,
} from './generated/graphql/graphql';
export type * as GraphQL from './generated/graphql/graphql';
