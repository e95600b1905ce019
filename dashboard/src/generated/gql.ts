/* eslint-disable */
import * as types from './graphql';



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
    "\n  query Me {\n    merchant {\n      name\n      clientId\n    }\n    environment\n  }\n": typeof types.MeDocument,
    "\n  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {\n    balanceTransactions(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...BalanceTransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.BalanceTransactionsDocument,
    "\n  query Credentials {\n    merchant {\n      clientId\n      webhookSecretOverlapUntil\n    }\n  }\n": typeof types.CredentialsDocument,
    "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      webhookSecret\n      previousSecretExpiresAt\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  fragment CustomerRow on Customer {\n    customerUuid\n    customerId\n    firstName\n    lastName\n    countryCode\n    kycStatus\n    overallKycStatus\n    createdAt\n  }\n": typeof types.CustomerRowFragmentDoc,
    "\n  query Customers($after: String) {\n    customers(first: 20, after: $after) {\n      edges {\n        node {\n          ...CustomerRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.CustomersDocument,
    "\n  query Customer($u: String!) {\n    customer(uuid: $u) {\n      ...CustomerRow\n      email\n      phoneNumber\n      dialCode\n      dateOfBirth\n    }\n    kyc(customerUuid: $u) {\n      kycStatus\n      overallKycStatus\n      submittedAt\n      reviewedAt\n      rejectionReason\n    }\n  }\n": typeof types.CustomerDocument,
    "\n  query Activity($days: Int) {\n    activity(days: $days) {\n      days {\n        day\n        currency\n        collected\n        paidOut\n      }\n      finalCount\n      successfulCount\n      successRate\n    }\n  }\n": typeof types.ActivityDocument,
    "\n  mutation EnrollCustomer($input: EnrollCustomerInput!) {\n    enrollCustomer(input: $input) {\n      customerUuid\n      firstName\n      lastName\n    }\n  }\n": typeof types.EnrollCustomerDocument,
    "\n  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {\n    submitKyc(customerUuid: $u, input: $input) {\n      kycStatus\n    }\n  }\n": typeof types.SubmitKycDocument,
    "\n  fragment PaymentFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n  }\n": typeof types.PaymentFieldsFragmentDoc,
    "\n  subscription PaymentChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...PaymentFields\n    }\n  }\n": typeof types.PaymentChangedDocument,
    "\n  mutation InitiatePayment($input: InitiatePaymentInput!) {\n    initiatePayment(input: $input) {\n      ...PaymentFields\n      nextAction {\n        url\n      }\n    }\n  }\n": typeof types.InitiatePaymentDocument,
    "\n  fragment SandboxTransactionFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n  }\n": typeof types.SandboxTransactionFieldsFragmentDoc,
    "\n  mutation SandboxCollect($input: InitiateCollectionInput!) {\n    initiateCollection(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": typeof types.SandboxCollectDocument,
    "\n  mutation SandboxTransfer($input: InitiateTransferInput!) {\n    initiateTransfer(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": typeof types.SandboxTransferDocument,
    "\n  subscription SandboxKycChanged {\n    kycStatusChanged {\n      customerUuid\n      kycStatus\n    }\n  }\n": typeof types.SandboxKycChangedDocument,
    "\n  mutation TopUpBalance($currency: String!, $amount: Decimal!) {\n    topUpBalance(currency: $currency, amount: $amount) {\n      ...BalanceFields\n    }\n  }\n": typeof types.TopUpBalanceDocument,
    "\n  query SandboxCustomers {\n    customers(first: 100) {\n      edges {\n        node {\n          customerUuid\n          firstName\n          lastName\n          kycStatus\n        }\n      }\n    }\n  }\n": typeof types.SandboxCustomersDocument,
    "\n  query TransactionDetail($r: String!) {\n    transaction(reference: $r) {\n      ...TransactionFields\n      rate\n      fee\n      accountNumber\n      countryCode\n      expiresAt\n      amountRefunded\n      paymentReference\n      bankInfo {\n        accountName\n        accountNumber\n        bankName\n        bankCode\n      }\n      beneficiary {\n        accountName\n        accountNumber\n        networkId\n      }\n      card {\n        brand\n        last4\n      }\n      history {\n        fromStatus\n        toStatus\n        reason\n        occurredAt\n      }\n    }\n  }\n": typeof types.TransactionDetailDocument,
    "\n  fragment RefundFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n  }\n": typeof types.RefundFieldsFragmentDoc,
    "\n  mutation RefundPayment($input: RefundPaymentInput!) {\n    refundPayment(input: $input) {\n      ...RefundFields\n    }\n  }\n": typeof types.RefundPaymentDocument,
    "\n  subscription RefundChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...RefundFields\n    }\n  }\n": typeof types.RefundChangedDocument,
    "\n  subscription TransactionStatusChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      status\n    }\n  }\n": typeof types.TransactionStatusChangedDocument,
    "\n  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {\n    simulateTransaction(reference: $r, outcome: $o) {\n      status\n    }\n  }\n": typeof types.SimulateTransactionDocument,
    "\n  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {\n    transactions(filter: $filter, search: $search, first: $first, after: $after) {\n      edges {\n        node {\n          ...TransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.TransactionsDocument,
    "\n  query WebhookSettings {\n    merchant {\n      webhookUrl\n      webhookEventTypes\n    }\n    webhookEventTypes\n  }\n": typeof types.WebhookSettingsDocument,
    "\n  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {\n    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {\n      webhookUrl\n      webhookEventTypes\n    }\n  }\n": typeof types.ChooseWebhookEventTypesDocument,
    "\n  mutation SendWebhookTestEvent {\n    sendWebhookTestEvent {\n      id\n      deliveryStatus\n      attempts {\n        statusCode\n        latencyMs\n        success\n        error\n      }\n    }\n  }\n": typeof types.SendWebhookTestEventDocument,
    "\n  fragment WebhookEventRow on WebhookEvent {\n    id\n    type\n    reference\n    customerUuid\n    customer {\n      firstName\n      lastName\n    }\n    createdAt\n    deliveryStatus\n    attemptCount\n    deliveredAt\n    nextAttemptAt\n  }\n": typeof types.WebhookEventRowFragmentDoc,
    "\n  fragment WebhookEventFull on WebhookEvent {\n    ...WebhookEventRow\n    data\n    attempts {\n      attemptNumber\n      attemptedAt\n      url\n      statusCode\n      latencyMs\n      success\n      error\n    }\n  }\n": typeof types.WebhookEventFullFragmentDoc,
    "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n": typeof types.WebhookEventTypesDocument,
    "\n  query WebhookEndpoint {\n    merchant {\n      webhookUrl\n    }\n  }\n": typeof types.WebhookEndpointDocument,
    "\n  mutation SetWebhookEndpoint($url: String) {\n    setWebhookEndpoint(url: $url) {\n      webhookUrl\n    }\n  }\n": typeof types.SetWebhookEndpointDocument,
    "\n  query WebhookEvents($type: String) {\n    webhookEvents(first: 50, type: $type) {\n      edges {\n        node {\n          ...WebhookEventRow\n        }\n      }\n    }\n  }\n": typeof types.WebhookEventsDocument,
    "\n  query WebhookEventDetail($id: String!) {\n    webhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": typeof types.WebhookEventDetailDocument,
    "\n  mutation ResendWebhookEvent($id: String!) {\n    resendWebhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": typeof types.ResendWebhookEventDocument,
    "\n  fragment BalanceFields on Balance {\n    currency\n    available\n    pending\n    reserved\n  }\n": typeof types.BalanceFieldsFragmentDoc,
    "\n  query Balances {\n    balances {\n      ...BalanceFields\n    }\n  }\n": typeof types.BalancesDocument,
    "\n  subscription BalanceChanged($currency: String) {\n    balanceChanged(currency: $currency) {\n      ...BalanceFields\n    }\n  }\n": typeof types.BalanceChangedDocument,
    "\n  fragment BalanceTransactionFields on BalanceTransaction {\n    id\n    type\n    currency\n    amount\n    fee\n    net\n    balanceAfter\n    sourceReference\n    createdAt\n  }\n": typeof types.BalanceTransactionFieldsFragmentDoc,
    "\n  fragment TransactionFields on Transaction {\n    reference\n    externalReference\n    type\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n    customerUuid\n    customer {\n      firstName\n      lastName\n      email\n    }\n    accountType\n    createdAt\n    updatedAt\n    completedAt\n  }\n": typeof types.TransactionFieldsFragmentDoc,
    "\n  subscription TransactionChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...TransactionFields\n    }\n  }\n": typeof types.TransactionChangedDocument,
};
const documents: Documents = {
    "\n  query Me {\n    merchant {\n      name\n      clientId\n    }\n    environment\n  }\n": types.MeDocument,
    "\n  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {\n    balanceTransactions(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...BalanceTransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.BalanceTransactionsDocument,
    "\n  query Credentials {\n    merchant {\n      clientId\n      webhookSecretOverlapUntil\n    }\n  }\n": types.CredentialsDocument,
    "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      webhookSecret\n      previousSecretExpiresAt\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  fragment CustomerRow on Customer {\n    customerUuid\n    customerId\n    firstName\n    lastName\n    countryCode\n    kycStatus\n    overallKycStatus\n    createdAt\n  }\n": types.CustomerRowFragmentDoc,
    "\n  query Customers($after: String) {\n    customers(first: 20, after: $after) {\n      edges {\n        node {\n          ...CustomerRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.CustomersDocument,
    "\n  query Customer($u: String!) {\n    customer(uuid: $u) {\n      ...CustomerRow\n      email\n      phoneNumber\n      dialCode\n      dateOfBirth\n    }\n    kyc(customerUuid: $u) {\n      kycStatus\n      overallKycStatus\n      submittedAt\n      reviewedAt\n      rejectionReason\n    }\n  }\n": types.CustomerDocument,
    "\n  query Activity($days: Int) {\n    activity(days: $days) {\n      days {\n        day\n        currency\n        collected\n        paidOut\n      }\n      finalCount\n      successfulCount\n      successRate\n    }\n  }\n": types.ActivityDocument,
    "\n  mutation EnrollCustomer($input: EnrollCustomerInput!) {\n    enrollCustomer(input: $input) {\n      customerUuid\n      firstName\n      lastName\n    }\n  }\n": types.EnrollCustomerDocument,
    "\n  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {\n    submitKyc(customerUuid: $u, input: $input) {\n      kycStatus\n    }\n  }\n": types.SubmitKycDocument,
    "\n  fragment PaymentFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n  }\n": types.PaymentFieldsFragmentDoc,
    "\n  subscription PaymentChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...PaymentFields\n    }\n  }\n": types.PaymentChangedDocument,
    "\n  mutation InitiatePayment($input: InitiatePaymentInput!) {\n    initiatePayment(input: $input) {\n      ...PaymentFields\n      nextAction {\n        url\n      }\n    }\n  }\n": types.InitiatePaymentDocument,
    "\n  fragment SandboxTransactionFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n  }\n": types.SandboxTransactionFieldsFragmentDoc,
    "\n  mutation SandboxCollect($input: InitiateCollectionInput!) {\n    initiateCollection(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": types.SandboxCollectDocument,
    "\n  mutation SandboxTransfer($input: InitiateTransferInput!) {\n    initiateTransfer(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": types.SandboxTransferDocument,
    "\n  subscription SandboxKycChanged {\n    kycStatusChanged {\n      customerUuid\n      kycStatus\n    }\n  }\n": types.SandboxKycChangedDocument,
    "\n  mutation TopUpBalance($currency: String!, $amount: Decimal!) {\n    topUpBalance(currency: $currency, amount: $amount) {\n      ...BalanceFields\n    }\n  }\n": types.TopUpBalanceDocument,
    "\n  query SandboxCustomers {\n    customers(first: 100) {\n      edges {\n        node {\n          customerUuid\n          firstName\n          lastName\n          kycStatus\n        }\n      }\n    }\n  }\n": types.SandboxCustomersDocument,
    "\n  query TransactionDetail($r: String!) {\n    transaction(reference: $r) {\n      ...TransactionFields\n      rate\n      fee\n      accountNumber\n      countryCode\n      expiresAt\n      amountRefunded\n      paymentReference\n      bankInfo {\n        accountName\n        accountNumber\n        bankName\n        bankCode\n      }\n      beneficiary {\n        accountName\n        accountNumber\n        networkId\n      }\n      card {\n        brand\n        last4\n      }\n      history {\n        fromStatus\n        toStatus\n        reason\n        occurredAt\n      }\n    }\n  }\n": types.TransactionDetailDocument,
    "\n  fragment RefundFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n  }\n": types.RefundFieldsFragmentDoc,
    "\n  mutation RefundPayment($input: RefundPaymentInput!) {\n    refundPayment(input: $input) {\n      ...RefundFields\n    }\n  }\n": types.RefundPaymentDocument,
    "\n  subscription RefundChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...RefundFields\n    }\n  }\n": types.RefundChangedDocument,
    "\n  subscription TransactionStatusChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      status\n    }\n  }\n": types.TransactionStatusChangedDocument,
    "\n  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {\n    simulateTransaction(reference: $r, outcome: $o) {\n      status\n    }\n  }\n": types.SimulateTransactionDocument,
    "\n  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {\n    transactions(filter: $filter, search: $search, first: $first, after: $after) {\n      edges {\n        node {\n          ...TransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.TransactionsDocument,
    "\n  query WebhookSettings {\n    merchant {\n      webhookUrl\n      webhookEventTypes\n    }\n    webhookEventTypes\n  }\n": types.WebhookSettingsDocument,
    "\n  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {\n    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {\n      webhookUrl\n      webhookEventTypes\n    }\n  }\n": types.ChooseWebhookEventTypesDocument,
    "\n  mutation SendWebhookTestEvent {\n    sendWebhookTestEvent {\n      id\n      deliveryStatus\n      attempts {\n        statusCode\n        latencyMs\n        success\n        error\n      }\n    }\n  }\n": types.SendWebhookTestEventDocument,
    "\n  fragment WebhookEventRow on WebhookEvent {\n    id\n    type\n    reference\n    customerUuid\n    customer {\n      firstName\n      lastName\n    }\n    createdAt\n    deliveryStatus\n    attemptCount\n    deliveredAt\n    nextAttemptAt\n  }\n": types.WebhookEventRowFragmentDoc,
    "\n  fragment WebhookEventFull on WebhookEvent {\n    ...WebhookEventRow\n    data\n    attempts {\n      attemptNumber\n      attemptedAt\n      url\n      statusCode\n      latencyMs\n      success\n      error\n    }\n  }\n": types.WebhookEventFullFragmentDoc,
    "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n": types.WebhookEventTypesDocument,
    "\n  query WebhookEndpoint {\n    merchant {\n      webhookUrl\n    }\n  }\n": types.WebhookEndpointDocument,
    "\n  mutation SetWebhookEndpoint($url: String) {\n    setWebhookEndpoint(url: $url) {\n      webhookUrl\n    }\n  }\n": types.SetWebhookEndpointDocument,
    "\n  query WebhookEvents($type: String) {\n    webhookEvents(first: 50, type: $type) {\n      edges {\n        node {\n          ...WebhookEventRow\n        }\n      }\n    }\n  }\n": types.WebhookEventsDocument,
    "\n  query WebhookEventDetail($id: String!) {\n    webhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": types.WebhookEventDetailDocument,
    "\n  mutation ResendWebhookEvent($id: String!) {\n    resendWebhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": types.ResendWebhookEventDocument,
    "\n  fragment BalanceFields on Balance {\n    currency\n    available\n    pending\n    reserved\n  }\n": types.BalanceFieldsFragmentDoc,
    "\n  query Balances {\n    balances {\n      ...BalanceFields\n    }\n  }\n": types.BalancesDocument,
    "\n  subscription BalanceChanged($currency: String) {\n    balanceChanged(currency: $currency) {\n      ...BalanceFields\n    }\n  }\n": types.BalanceChangedDocument,
    "\n  fragment BalanceTransactionFields on BalanceTransaction {\n    id\n    type\n    currency\n    amount\n    fee\n    net\n    balanceAfter\n    sourceReference\n    createdAt\n  }\n": types.BalanceTransactionFieldsFragmentDoc,
    "\n  fragment TransactionFields on Transaction {\n    reference\n    externalReference\n    type\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n    customerUuid\n    customer {\n      firstName\n      lastName\n      email\n    }\n    accountType\n    createdAt\n    updatedAt\n    completedAt\n  }\n": types.TransactionFieldsFragmentDoc,
    "\n  subscription TransactionChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...TransactionFields\n    }\n  }\n": types.TransactionChangedDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    merchant {\n      name\n      clientId\n    }\n    environment\n  }\n"): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {\n    balanceTransactions(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...BalanceTransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').BalanceTransactionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Credentials {\n    merchant {\n      clientId\n      webhookSecretOverlapUntil\n    }\n  }\n"): typeof import('./graphql').CredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      webhookSecret\n      previousSecretExpiresAt\n    }\n  }\n"): typeof import('./graphql').RotateWebhookSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CustomerRow on Customer {\n    customerUuid\n    customerId\n    firstName\n    lastName\n    countryCode\n    kycStatus\n    overallKycStatus\n    createdAt\n  }\n"): typeof import('./graphql').CustomerRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customers($after: String) {\n    customers(first: 20, after: $after) {\n      edges {\n        node {\n          ...CustomerRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').CustomersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customer($u: String!) {\n    customer(uuid: $u) {\n      ...CustomerRow\n      email\n      phoneNumber\n      dialCode\n      dateOfBirth\n    }\n    kyc(customerUuid: $u) {\n      kycStatus\n      overallKycStatus\n      submittedAt\n      reviewedAt\n      rejectionReason\n    }\n  }\n"): typeof import('./graphql').CustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Activity($days: Int) {\n    activity(days: $days) {\n      days {\n        day\n        currency\n        collected\n        paidOut\n      }\n      finalCount\n      successfulCount\n      successRate\n    }\n  }\n"): typeof import('./graphql').ActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EnrollCustomer($input: EnrollCustomerInput!) {\n    enrollCustomer(input: $input) {\n      customerUuid\n      firstName\n      lastName\n    }\n  }\n"): typeof import('./graphql').EnrollCustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {\n    submitKyc(customerUuid: $u, input: $input) {\n      kycStatus\n    }\n  }\n"): typeof import('./graphql').SubmitKycDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PaymentFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n  }\n"): typeof import('./graphql').PaymentFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PaymentChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...PaymentFields\n    }\n  }\n"): typeof import('./graphql').PaymentChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InitiatePayment($input: InitiatePaymentInput!) {\n    initiatePayment(input: $input) {\n      ...PaymentFields\n      nextAction {\n        url\n      }\n    }\n  }\n"): typeof import('./graphql').InitiatePaymentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SandboxTransactionFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n  }\n"): typeof import('./graphql').SandboxTransactionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SandboxCollect($input: InitiateCollectionInput!) {\n    initiateCollection(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n"): typeof import('./graphql').SandboxCollectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SandboxTransfer($input: InitiateTransferInput!) {\n    initiateTransfer(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n"): typeof import('./graphql').SandboxTransferDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SandboxKycChanged {\n    kycStatusChanged {\n      customerUuid\n      kycStatus\n    }\n  }\n"): typeof import('./graphql').SandboxKycChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TopUpBalance($currency: String!, $amount: Decimal!) {\n    topUpBalance(currency: $currency, amount: $amount) {\n      ...BalanceFields\n    }\n  }\n"): typeof import('./graphql').TopUpBalanceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SandboxCustomers {\n    customers(first: 100) {\n      edges {\n        node {\n          customerUuid\n          firstName\n          lastName\n          kycStatus\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').SandboxCustomersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TransactionDetail($r: String!) {\n    transaction(reference: $r) {\n      ...TransactionFields\n      rate\n      fee\n      accountNumber\n      countryCode\n      expiresAt\n      amountRefunded\n      paymentReference\n      bankInfo {\n        accountName\n        accountNumber\n        bankName\n        bankCode\n      }\n      beneficiary {\n        accountName\n        accountNumber\n        networkId\n      }\n      card {\n        brand\n        last4\n      }\n      history {\n        fromStatus\n        toStatus\n        reason\n        occurredAt\n      }\n    }\n  }\n"): typeof import('./graphql').TransactionDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RefundFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n  }\n"): typeof import('./graphql').RefundFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefundPayment($input: RefundPaymentInput!) {\n    refundPayment(input: $input) {\n      ...RefundFields\n    }\n  }\n"): typeof import('./graphql').RefundPaymentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RefundChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...RefundFields\n    }\n  }\n"): typeof import('./graphql').RefundChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TransactionStatusChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      status\n    }\n  }\n"): typeof import('./graphql').TransactionStatusChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {\n    simulateTransaction(reference: $r, outcome: $o) {\n      status\n    }\n  }\n"): typeof import('./graphql').SimulateTransactionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {\n    transactions(filter: $filter, search: $search, first: $first, after: $after) {\n      edges {\n        node {\n          ...TransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').TransactionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookSettings {\n    merchant {\n      webhookUrl\n      webhookEventTypes\n    }\n    webhookEventTypes\n  }\n"): typeof import('./graphql').WebhookSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {\n    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {\n      webhookUrl\n      webhookEventTypes\n    }\n  }\n"): typeof import('./graphql').ChooseWebhookEventTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendWebhookTestEvent {\n    sendWebhookTestEvent {\n      id\n      deliveryStatus\n      attempts {\n        statusCode\n        latencyMs\n        success\n        error\n      }\n    }\n  }\n"): typeof import('./graphql').SendWebhookTestEventDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEventRow on WebhookEvent {\n    id\n    type\n    reference\n    customerUuid\n    customer {\n      firstName\n      lastName\n    }\n    createdAt\n    deliveryStatus\n    attemptCount\n    deliveredAt\n    nextAttemptAt\n  }\n"): typeof import('./graphql').WebhookEventRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEventFull on WebhookEvent {\n    ...WebhookEventRow\n    data\n    attempts {\n      attemptNumber\n      attemptedAt\n      url\n      statusCode\n      latencyMs\n      success\n      error\n    }\n  }\n"): typeof import('./graphql').WebhookEventFullFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n"): typeof import('./graphql').WebhookEventTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpoint {\n    merchant {\n      webhookUrl\n    }\n  }\n"): typeof import('./graphql').WebhookEndpointDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhookEndpoint($url: String) {\n    setWebhookEndpoint(url: $url) {\n      webhookUrl\n    }\n  }\n"): typeof import('./graphql').SetWebhookEndpointDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEvents($type: String) {\n    webhookEvents(first: 50, type: $type) {\n      edges {\n        node {\n          ...WebhookEventRow\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').WebhookEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEventDetail($id: String!) {\n    webhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n"): typeof import('./graphql').WebhookEventDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendWebhookEvent($id: String!) {\n    resendWebhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n"): typeof import('./graphql').ResendWebhookEventDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BalanceFields on Balance {\n    currency\n    available\n    pending\n    reserved\n  }\n"): typeof import('./graphql').BalanceFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Balances {\n    balances {\n      ...BalanceFields\n    }\n  }\n"): typeof import('./graphql').BalancesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription BalanceChanged($currency: String) {\n    balanceChanged(currency: $currency) {\n      ...BalanceFields\n    }\n  }\n"): typeof import('./graphql').BalanceChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BalanceTransactionFields on BalanceTransaction {\n    id\n    type\n    currency\n    amount\n    fee\n    net\n    balanceAfter\n    sourceReference\n    createdAt\n  }\n"): typeof import('./graphql').BalanceTransactionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TransactionFields on Transaction {\n    reference\n    externalReference\n    type\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n    customerUuid\n    customer {\n      firstName\n      lastName\n      email\n    }\n    accountType\n    createdAt\n    updatedAt\n    completedAt\n  }\n"): typeof import('./graphql').TransactionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TransactionChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...TransactionFields\n    }\n  }\n"): typeof import('./graphql').TransactionChangedDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
