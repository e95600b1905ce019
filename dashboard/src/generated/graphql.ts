export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar. */
  DateTime: { input: string; output: string; }
  /** An exact decimal number, as a string on the wire ("100.50"). Money amounts carry exactly their currency's minor-unit decimals ("100.00" USD, "3700" UGX). Input: a string or an Int; a Float is refused. */
  Decimal: { input: string; output: string; }
  /** The `JSONObject` scalar type represents JSON objects as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
};

/** Your recent activity: daily volume, and how many transactions that reached a final status succeeded. */
export type Activity = {
  __typename?: 'Activity';
  days: Array<ActivityDay>;
  finalCount: Scalars['Int']['output'];
  /** successfulCount / finalCount; null when nothing reached a final status. */
  successRate: Maybe<Scalars['Float']['output']>;
  successfulCount: Scalars['Int']['output'];
};

/** One day (UTC) of successful money in and out, in one currency. */
export type ActivityDay = {
  __typename?: 'ActivityDay';
  /** Collections and card payments. */
  collected: Scalars['Decimal']['output'];
  currency: Scalars['String']['output'];
  /** YYYY-MM-DD */
  day: Scalars['String']['output'];
  /** Transfers (their source amount) and refunds. */
  paidOut: Scalars['Decimal']['output'];
};

/** Your balance in one currency. */
export type Balance = {
  __typename?: 'Balance';
  /** Yours to pay out and refund from. */
  available: Scalars['Decimal']['output'];
  currency: Scalars['String']['output'];
  /** Settled collections and payments not yet released (the settlement delay). */
  pending: Scalars['Decimal']['output'];
  /** Held for transfers and refunds in flight. */
  reserved: Scalars['Decimal']['output'];
};

/** One movement of available + pending: net = amount − fee; balanceAfter follows it. */
export type BalanceTransaction = {
  __typename?: 'BalanceTransaction';
  /** What moved before the fee; negative for money out. */
  amount: Scalars['Decimal']['output'];
  balanceAfter: Scalars['Decimal']['output'];
  createdAt: Scalars['DateTime']['output'];
  currency: Scalars['String']['output'];
  fee: Scalars['Decimal']['output'];
  id: Scalars['String']['output'];
  net: Scalars['Decimal']['output'];
  /** The transaction (or adjustment) it comes from. */
  sourceReference: Maybe<Scalars['String']['output']>;
  type: BalanceTransactionType;
};

export type BalanceTransactionConnection = {
  __typename?: 'BalanceTransactionConnection';
  edges: Array<BalanceTransactionEdge>;
  pageInfo: PageInfo;
};

export type BalanceTransactionEdge = {
  __typename?: 'BalanceTransactionEdge';
  cursor: Scalars['String']['output'];
  node: BalanceTransaction;
};

/** Every given condition must hold. */
export type BalanceTransactionFilter = {
  /** At or after this time. */
  createdFrom: InputMaybe<Scalars['DateTime']['input']>;
  /** Before this time. */
  createdTo: InputMaybe<Scalars['DateTime']['input']>;
  currency: InputMaybe<Scalars['String']['input']>;
  type: InputMaybe<BalanceTransactionType>;
};

/** What moved a balance. */
export type BalanceTransactionType =
  | 'ADJUSTMENT'
  | 'COLLECTION'
  | 'PAYMENT'
  | 'REFUND'
  | 'REFUND_REVERSAL'
  | 'TOP_UP'
  | 'TRANSFER'
  | 'TRANSFER_REVERSAL';

/** The virtual bank account a sender pays a bank collection into; unique to that collection. */
export type BankInfo = {
  __typename?: 'BankInfo';
  accountName: Scalars['String']['output'];
  accountNumber: Scalars['String']['output'];
  bankCode: Scalars['String']['output'];
  bankName: Scalars['String']['output'];
};

/** Who receives a transfer. */
export type Beneficiary = {
  __typename?: 'Beneficiary';
  accountName: Scalars['String']['output'];
  accountNumber: Scalars['String']['output'];
  networkId: Scalars['String']['output'];
};

/** What is kept of a card: never its number, CVC or expiry. */
export type Card = {
  __typename?: 'Card';
  /** visa, mastercard, amex, verve, discover or unknown. */
  brand: Scalars['String']['output'];
  /** The same card gives the same fingerprint in your account (and a different one at any other merchant). */
  fingerprint: Scalars['String']['output'];
  last4: Scalars['String']['output'];
};

export type CardInput = {
  /** 3 digits, or 4 for American Express. */
  cvc: Scalars['String']['input'];
  /** 1 to 12. */
  expMonth: Scalars['Int']['input'];
  /** 2 or 4 digits; with expMonth, in the future. */
  expYear: Scalars['Int']['input'];
  /** 12 to 19 digits (spaces or dashes between groups are fine). Sandbox test cards: 4242424242424242, 4000002500003155 (3-D Secure), 4000000000009995 (insufficient funds). */
  number: Scalars['String']['input'];
  postalCode: InputMaybe<Scalars['String']['input']>;
};

/** A way to move money in a country, in one direction. */
export type Channel = {
  __typename?: 'Channel';
  /** e.g. "ke_momo_deposit"; pass it as channel_id. */
  channelId: Scalars['String']['output'];
  channelType: ChannelType;
  countryCode: Scalars['String']['output'];
  currency: Scalars['String']['output'];
  /** Largest amount per transaction, in the local currency. */
  maxAmount: Scalars['Decimal']['output'];
  /** Smallest amount per transaction, in the local currency. */
  minAmount: Scalars['Decimal']['output'];
  rampType: RampType;
  status: ChannelStatus;
};

/** Whether a channel takes new transactions. */
export type ChannelStatus =
  | 'ACTIVE'
  | 'INACTIVE'
  | 'UNAVAILABLE';

/** Bank transfer or mobile money. */
export type ChannelType =
  | 'BANK'
  | 'MOMO';

/** A supported cross-border country. */
export type Country = {
  __typename?: 'Country';
  /** ISO 3166-1 alpha-2. */
  countryCode: Scalars['String']['output'];
  /** ISO 4217 code of the local currency. */
  currency: Scalars['String']['output'];
  /** International dialling prefix, e.g. "+254". */
  dialCode: Scalars['String']['output'];
  /** ISO 4217 exponent: decimals an amount in the currency may have. */
  minorUnit: Scalars['Int']['output'];
  name: Scalars['String']['output'];
};

export type Customer = {
  __typename?: 'Customer';
  countryCode: Scalars['String']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The merchant's own identifier (customerid). */
  customerId: Scalars['String']['output'];
  /** Assigned by the service at enrollment; Transaction.customerUuid and Kyc.customerUuid name it the same way. */
  customerUuid: Scalars['ID']['output'];
  /** YYYY-MM-DD */
  dateOfBirth: Maybe<Scalars['String']['output']>;
  dialCode: Scalars['String']['output'];
  email: Scalars['String']['output'];
  firstName: Scalars['String']['output'];
  kycStatus: KycStatus;
  lastName: Scalars['String']['output'];
  overallKycStatus: KycStatus;
  phoneNumber: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
  /** @deprecated Use customerUuid: the same value, named as on every other type. */
  uuid: Scalars['ID']['output'];
};

export type CustomerConnection = {
  __typename?: 'CustomerConnection';
  edges: Array<CustomerEdge>;
  pageInfo: PageInfo;
};

export type CustomerEdge = {
  __typename?: 'CustomerEdge';
  cursor: Scalars['String']['output'];
  node: Customer;
};

export type EnrollCustomerInput = {
  /** ISO 3166-1 alpha-2, one of the supported countries. */
  countryCode: Scalars['String']['input'];
  customerId: Scalars['String']['input'];
  /** YYYY-MM-DD */
  dateOfBirth: InputMaybe<Scalars['String']['input']>;
  /** e.g. +254; must be the country’s. */
  dialCode: Scalars['String']['input'];
  email: Scalars['String']['input'];
  firstName: Scalars['String']['input'];
  lastName: Scalars['String']['input'];
  /** Digits only, without the dial code. */
  phoneNumber: Scalars['String']['input'];
};

/** SANDBOX (test data; simulations and test cards) or PRODUCTION (live traffic). */
export type Environment =
  | 'PRODUCTION'
  | 'SANDBOX';

export type IdType =
  | 'DRIVERS_LICENSE'
  | 'NATIONAL_ID'
  | 'PASSPORT';

export type InitiateCollectionInput = {
  accountNumber: Scalars['String']['input'];
  /** Must be the channel’s type. */
  accountType: ChannelType;
  /** In currency, within the channel’s bounds and the currency’s decimals. */
  amount: Scalars['Decimal']['input'];
  /** e.g. "ke_momo_deposit"; a DEPOSIT channel for collections, WITHDRAWAL for transfers. */
  channelId: Scalars['String']['input'];
  /** ISO 3166-1 alpha-2 of the customer’s (collection) or beneficiary’s (transfer) country. */
  countryCode: Scalars['String']['input'];
  /** The country’s currency, e.g. "KES". */
  currency: Scalars['String']['input'];
  customerUuid: Scalars['String']['input'];
  /** The country’s dial code, e.g. "+254". */
  dialCode: Scalars['String']['input'];
  /** e.g. "ke_mpesa"; a network of the country and channel type. */
  networkId: Scalars['String']['input'];
  reason: Scalars['String']['input'];
  /** Your own reference; unique across all your transactions. */
  reference: Scalars['String']['input'];
};

export type InitiatePaymentInput = {
  /** Within the currency’s decimals. */
  amount: Scalars['Decimal']['input'];
  card: CardInput;
  /** ISO 4217, e.g. "NGN". */
  currency: Scalars['String']['input'];
  /** One of your customers, to link the payment to. */
  customerUuid: InputMaybe<Scalars['String']['input']>;
  description: InputMaybe<Scalars['String']['input']>;
  paymentMethod: PaymentMethod;
  /** Where the cardholder returns after 3-D Secure, with reference, external_reference and status in the query. */
  redirectUrl: InputMaybe<Scalars['String']['input']>;
  /** Your own reference; unique across all your transactions. */
  reference: Scalars['String']['input'];
};

export type InitiateTransferInput = {
  /** The beneficiary’s name. */
  accountName: Scalars['String']['input'];
  accountNumber: Scalars['String']['input'];
  /** Must be the channel’s type. */
  accountType: ChannelType;
  /** What you send, in sourceCurrency. */
  amount: Scalars['Decimal']['input'];
  /** e.g. "ke_momo_deposit"; a DEPOSIT channel for collections, WITHDRAWAL for transfers. */
  channelId: Scalars['String']['input'];
  /** ISO 3166-1 alpha-2 of the customer’s (collection) or beneficiary’s (transfer) country. */
  countryCode: Scalars['String']['input'];
  customerUuid: Scalars['String']['input'];
  /** The destination country’s currency. */
  destinationCurrency: Scalars['String']['input'];
  /** The country’s dial code, e.g. "+254". */
  dialCode: Scalars['String']['input'];
  /** e.g. "ke_mpesa"; a network of the country and channel type. */
  networkId: Scalars['String']['input'];
  /** A live quote (from rate) for this pair and amount locks its rate. */
  quoteId: InputMaybe<Scalars['String']['input']>;
  reason: Scalars['String']['input'];
  /** Your own reference; unique across all your transactions. */
  reference: Scalars['String']['input'];
  sourceCurrency: Scalars['String']['input'];
};

/** A customer's KYC status and latest review. */
export type Kyc = {
  __typename?: 'Kyc';
  customerUuid: Scalars['ID']['output'];
  kycStatus: KycStatus;
  overallKycStatus: KycStatus;
  rejectionReason: Maybe<Scalars['String']['output']>;
  reviewedAt: Maybe<Scalars['DateTime']['output']>;
  submittedAt: Maybe<Scalars['DateTime']['output']>;
};

export type KycAddressInput = {
  city: Scalars['String']['input'];
  countryCode: Scalars['String']['input'];
  line1: Scalars['String']['input'];
  postalCode: InputMaybe<Scalars['String']['input']>;
};

export type KycStatus =
  | 'APPROVED'
  | 'PENDING'
  | 'PENDING_KYC'
  | 'REJECTED';

/** The authenticated merchant. Secrets are never readable. */
export type Merchant = {
  __typename?: 'Merchant';
  clientId: Scalars['String']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The same value as merchantId. */
  id: Scalars['ID']['output'];
  /** REST: merchant_id. */
  merchantId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
  /** Until when a rotated-out webhook secret still signs deliveries beside the current one; null when none does. */
  webhookSecretOverlapUntil: Maybe<Scalars['DateTime']['output']>;
  /** Where webhooks are delivered; null until configured. */
  webhookUrl: Maybe<Scalars['String']['output']>;
};

export type Mutation = {
  __typename?: 'Mutation';
  enrollCustomer: Customer;
  /** Collect from a KYC-approved customer by bank transfer (bankInfo) or mobile money (a prompt). */
  initiateCollection: Transaction;
  /** Charge a card. Answers SUCCESSFUL or FAILED (failureReason), or REQUIRES_ACTION with nextAction: send the cardholder to nextAction.url (3-D Secure). */
  initiatePayment: Transaction;
  /** Send funds to a beneficiary, converted at the current rate or a locked quote. */
  initiateTransfer: Transaction;
  /** Refund a successful card payment in full (amount omitted) or in part; reserved from your available balance. */
  refundPayment: Transaction;
  /** Delivers the event again now, with the same webhook-id, whatever its delivery status. */
  resendWebhookEvent: WebhookEvent;
  /** A new signing secret, shown once; the previous one keeps signing (a second signature) for 24 hours. */
  rotateWebhookSecret: WebhookSecretRotation;
  /** Sets where webhooks are delivered; null removes the endpoint. Production: https only, and the host must not resolve to a loopback, private, link-local or other reserved address. */
  setWebhookEndpoint: Merchant;
  /** Sandbox only: decide a processing transaction now. In production it is NOT_FOUND, like the REST route. */
  simulateTransaction: Transaction;
  /** Submit (or, after a rejection, resubmit) KYC; the review decides it later. */
  submitKyc: Kyc;
  /** Sandbox only: add test money to your available balance. In production it is NOT_FOUND, like the REST route. */
  topUpBalance: Balance;
};


export type MutationEnrollCustomerArgs = {
  input: EnrollCustomerInput;
};


export type MutationInitiateCollectionArgs = {
  input: InitiateCollectionInput;
};


export type MutationInitiatePaymentArgs = {
  input: InitiatePaymentInput;
};


export type MutationInitiateTransferArgs = {
  input: InitiateTransferInput;
};


export type MutationRefundPaymentArgs = {
  input: RefundPaymentInput;
};


export type MutationResendWebhookEventArgs = {
  id: Scalars['String']['input'];
};


export type MutationSetWebhookEndpointArgs = {
  url: InputMaybe<Scalars['String']['input']>;
};


export type MutationSimulateTransactionArgs = {
  outcome: SimulationOutcome;
  reference: Scalars['String']['input'];
};


export type MutationSubmitKycArgs = {
  customerUuid: Scalars['String']['input'];
  input: SubmitKycInput;
};


export type MutationTopUpBalanceArgs = {
  amount: Scalars['Decimal']['input'];
  currency: Scalars['String']['input'];
};

/** A bank or mobile money operator. */
export type Network = {
  __typename?: 'Network';
  channelType: ChannelType;
  /** SWIFT BIC for a bank; the operator code for mobile money. */
  code: Scalars['String']['output'];
  countryCode: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** e.g. "ke_mpesa"; pass it as network_id. */
  networkId: Scalars['String']['output'];
};

/** A payment awaiting 3-D Secure: send the cardholder’s browser to url before expiresAt. */
export type NextAction = {
  __typename?: 'NextAction';
  expiresAt: Maybe<Scalars['DateTime']['output']>;
  type: NextActionType;
  /** The authentication page; its handle decides this payment once. */
  url: Scalars['String']['output'];
};

/** What the customer must do before a payment is decided. */
export type NextActionType =
  | 'REDIRECT_TO_URL';

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  /** Always false: lists page forward only, newest first. */
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor: Maybe<Scalars['String']['output']>;
};

/** How a domestic payment is paid. */
export type PaymentMethod =
  | 'CARD';

export type Query = {
  __typename?: 'Query';
  /** The last `days` days (default 30): daily volume collected vs paid out, and the success rate. */
  activity: Activity;
  /** Every movement of your balance (available + pending), newest first. */
  balanceTransactions: BalanceTransactionConnection;
  /** Your balances, one per currency. */
  balances: Array<Balance>;
  /** The channels of a country for one direction. Unsupported country: NOT_FOUND. */
  channels: Array<Channel>;
  /** Every supported country. */
  countries: Array<Country>;
  /** One of your customers, by customer_uuid. */
  customer: Customer;
  /** Your customers, newest first. */
  customers: CustomerConnection;
  /** Which environment this service is: sandbox-only operations exist only in SANDBOX. */
  environment: Environment;
  kyc: Kyc;
  /** The merchant the access token belongs to. */
  merchant: Merchant;
  /** The banks or mobile money operators of a country. Unsupported country: NOT_FOUND. */
  networks: Array<Network>;
  /** Prices a conversion now and stores it as a quote valid for 60 seconds. */
  rate: Quote;
  /** One of your transactions, by the service’s reference or your own (externalReference). */
  transaction: Transaction;
  /** Your transactions, newest first. */
  transactions: TransactionConnection;
  /** A payment’s current record, by the service’s reference or yours: confirm the outcome here (or by webhook), not by the redirect. A read, so a query. */
  verifyPayment: Transaction;
  /** One of your events, by id, with every delivery attempt. */
  webhookEvent: WebhookEvent;
  /** Your events with their delivery status, newest first. */
  webhookEvents: WebhookEventConnection;
};


export type QueryActivityArgs = {
  days: InputMaybe<Scalars['Int']['input']>;
};


export type QueryBalanceTransactionsArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  filter: InputMaybe<BalanceTransactionFilter>;
  first: InputMaybe<Scalars['Int']['input']>;
};


export type QueryChannelsArgs = {
  countryCode: Scalars['String']['input'];
  rampType: RampType;
};


export type QueryCustomerArgs = {
  uuid: Scalars['String']['input'];
};


export type QueryCustomersArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
};


export type QueryKycArgs = {
  customerUuid: Scalars['String']['input'];
};


export type QueryNetworksArgs = {
  channel: ChannelType;
  countryCode: Scalars['String']['input'];
};


export type QueryRateArgs = {
  amount: Scalars['Decimal']['input'];
  destinationCurrency: Scalars['String']['input'];
  sourceCurrency: Scalars['String']['input'];
};


export type QueryTransactionArgs = {
  reference: Scalars['String']['input'];
};


export type QueryTransactionsArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  filter: InputMaybe<TransactionFilter>;
  first: InputMaybe<Scalars['Int']['input']>;
};


export type QueryVerifyPaymentArgs = {
  reference: Scalars['String']['input'];
};


export type QueryWebhookEventArgs = {
  id: Scalars['String']['input'];
};


export type QueryWebhookEventsArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
  type: InputMaybe<Scalars['String']['input']>;
};

/** A priced conversion, valid for 60 seconds; a transfer can lock it by quoteId. */
export type Quote = {
  __typename?: 'Quote';
  createdAt: Scalars['DateTime']['output'];
  /** sourceAmount × rate, rounded down to the destination currency's minor unit. */
  destinationAmount: Scalars['Decimal']['output'];
  destinationCurrency: Scalars['String']['output'];
  expiresAt: Scalars['DateTime']['output'];
  /** In the source currency, charged on top of sourceAmount. */
  fee: Scalars['Decimal']['output'];
  /** "qt_" + 24 hex characters. */
  quoteId: Scalars['ID']['output'];
  /** Destination units per source unit, after the spread; up to 8 decimals. */
  rate: Scalars['Decimal']['output'];
  sourceAmount: Scalars['Decimal']['output'];
  sourceCurrency: Scalars['String']['output'];
};

/** Direction of a channel: DEPOSIT (collection) or WITHDRAWAL (transfer). */
export type RampType =
  | 'DEPOSIT'
  | 'WITHDRAWAL';

export type RefundPaymentInput = {
  /** At most what is left to refund; omitted: all of it. */
  amount: InputMaybe<Scalars['Decimal']['input']>;
  /** The payment’s reference ("pay_…") or your own. */
  paymentReference: Scalars['String']['input'];
  reason: Scalars['String']['input'];
  /** Your own reference for the refund, unique across your transactions. */
  reference: Scalars['String']['input'];
};

/** How a sandbox simulation decides a transaction. */
export type SimulationOutcome =
  | 'FAILED'
  | 'SUCCESSFUL';

export type SubmitKycInput = {
  address: KycAddressInput;
  /** YYYY-MM-DD */
  dateOfBirth: Scalars['String']['input'];
  /** ISO 3166-1 alpha-2 of the issuing country. */
  idCountry: Scalars['String']['input'];
  idNumber: Scalars['String']['input'];
  idType: IdType;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** Your balance in a currency (one, or every one when omitted), each time it changes, after the change commits. */
  balanceChanged: Balance;
  /** KYC status changes of your customers (one, or all when omitted), after they commit. */
  kycStatusChanged: Kyc;
  /** Status changes of your transactions (one, by reference or external reference, or all when omitted), after they commit. */
  transactionStatusChanged: Transaction;
};


export type SubscriptionBalanceChangedArgs = {
  currency: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionKycStatusChangedArgs = {
  customerUuid: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionTransactionStatusChangedArgs = {
  reference: InputMaybe<Scalars['String']['input']>;
};

/** A collection, transfer, payment or refund. Fields that do not apply to its kind are null (amount/currency: collections, payments and refunds; bankInfo: bank collections; source*\/destination*\/rate/quoteId/beneficiary: transfers; paymentMethod/card/redirectUrl/description/amountRefunded: payments; nextAction: payments and mobile money collections; paymentReference: refunds). */
export type Transaction = {
  __typename?: 'Transaction';
  /** The sender’s (collection) or beneficiary’s (transfer) account or wallet number. */
  accountNumber: Maybe<Scalars['String']['output']>;
  /** BANK or MOMO: the channel type of channelId. */
  accountType: Maybe<ChannelType>;
  /** Collections: what the sender pays, in currency. Payments: what the card is charged. */
  amount: Maybe<Scalars['Decimal']['output']>;
  /** Payments: what its refunds hold, in flight or done (never more than amount). */
  amountRefunded: Maybe<Scalars['Decimal']['output']>;
  /** Bank collections only. */
  bankInfo: Maybe<BankInfo>;
  /** Transfers only. */
  beneficiary: Maybe<Beneficiary>;
  /** Card payments only. */
  card: Maybe<Card>;
  channelId: Maybe<Scalars['String']['output']>;
  completedAt: Maybe<Scalars['DateTime']['output']>;
  countryCode: Maybe<Scalars['String']['output']>;
  createdAt: Scalars['DateTime']['output'];
  currency: Maybe<Scalars['String']['output']>;
  customerUuid: Maybe<Scalars['ID']['output']>;
  /** Payments: your description. */
  description: Maybe<Scalars['String']['output']>;
  destinationAmount: Maybe<Scalars['Decimal']['output']>;
  destinationCurrency: Maybe<Scalars['String']['output']>;
  dialCode: Maybe<Scalars['String']['output']>;
  /** Bank collections: when an unpaid one expires. Payments awaiting 3-D Secure: the authentication deadline. */
  expiresAt: Maybe<Scalars['DateTime']['output']>;
  /** Your own reference, unique across all your transactions. */
  externalReference: Scalars['String']['output'];
  failureReason: Maybe<Scalars['String']['output']>;
  /** What you pay for it. Transfers: in the source currency, charged on top of sourceAmount. Collections and payments: taken from amount at settlement. Refunds: 0. */
  fee: Maybe<Scalars['Decimal']['output']>;
  /** Every status change, oldest first. */
  history: Array<TransactionStatusChange>;
  networkId: Maybe<Scalars['String']['output']>;
  /** Where the customer must go first: a payment awaiting 3-D Secure (REQUIRES_ACTION), or a PROCESSING mobile money collection whose provider has the payer approve on a page. Null otherwise. */
  nextAction: Maybe<NextAction>;
  /** Payments only. */
  paymentMethod: Maybe<PaymentMethod>;
  /** Refunds: the payment given back (its "pay_…" reference). */
  paymentReference: Maybe<Scalars['String']['output']>;
  providerReference: Maybe<Scalars['String']['output']>;
  /** The quote whose rate the transfer locked, if any. */
  quoteId: Maybe<Scalars['String']['output']>;
  /** Destination units per source unit; up to 8 decimals. */
  rate: Maybe<Scalars['Decimal']['output']>;
  reason: Maybe<Scalars['String']['output']>;
  /** Payments: where the cardholder returns after 3-D Secure. */
  redirectUrl: Maybe<Scalars['String']['output']>;
  /** Assigned by the service, e.g. "col_…", "trf_…" or "pay_…". */
  reference: Scalars['String']['output'];
  sourceAmount: Maybe<Scalars['Decimal']['output']>;
  sourceCurrency: Maybe<Scalars['String']['output']>;
  status: TransactionStatus;
  type: TransactionType;
  updatedAt: Scalars['DateTime']['output'];
};

export type TransactionConnection = {
  __typename?: 'TransactionConnection';
  edges: Array<TransactionEdge>;
  pageInfo: PageInfo;
};

export type TransactionEdge = {
  __typename?: 'TransactionEdge';
  cursor: Scalars['String']['output'];
  node: Transaction;
};

/** Every given condition must hold. */
export type TransactionFilter = {
  /** Created at or after this time. */
  createdFrom: InputMaybe<Scalars['DateTime']['input']>;
  /** Created before this time. */
  createdTo: InputMaybe<Scalars['DateTime']['input']>;
  customerUuid: InputMaybe<Scalars['String']['input']>;
  status: InputMaybe<TransactionStatus>;
  type: InputMaybe<TransactionType>;
};

/** INITIATING (recorded, the provider not yet answered; usually milliseconds) → PROCESSING | FAILED; PROCESSING → SUCCESSFUL | FAILED | EXPIRED; a final status never changes. Only a collection can expire. A card payment goes from INITIATING to SUCCESSFUL or FAILED at once, or to REQUIRES_ACTION (3-D Secure, see nextAction) and then SUCCESSFUL or FAILED (authentication_failed, or authentication_expired after the deadline). */
export type TransactionStatus =
  | 'EXPIRED'
  | 'FAILED'
  | 'INITIATING'
  | 'PROCESSING'
  | 'REQUIRES_ACTION'
  | 'SUCCESSFUL';

/** One entry of a transaction’s history. */
export type TransactionStatusChange = {
  __typename?: 'TransactionStatusChange';
  /** Null for the first entry (creation). */
  fromStatus: Maybe<TransactionStatus>;
  occurredAt: Scalars['DateTime']['output'];
  /** Why: "initiated", "provider", "simulation", "expiry" or a failure reason. */
  reason: Maybe<Scalars['String']['output']>;
  toStatus: TransactionStatus;
};

/** What kind of transaction it is. */
export type TransactionType =
  | 'COLLECTION'
  | 'PAYMENT'
  | 'REFUND'
  | 'TRANSFER';

/** One delivery attempt of an event, as it happened. */
export type WebhookAttempt = {
  __typename?: 'WebhookAttempt';
  /** 1 for the first attempt; retries and resends count on. */
  attemptNumber: Scalars['Int']['output'];
  attemptedAt: Scalars['DateTime']['output'];
  /** Why the attempt failed ("HTTP 500", "timed out after 10000 ms", …); null on success. */
  error: Maybe<Scalars['String']['output']>;
  /** Null until the attempt is finished. */
  latencyMs: Maybe<Scalars['Int']['output']>;
  /** The HTTP status your endpoint answered; null when there was no answer (timeout, refused connection, refused URL). */
  statusCode: Maybe<Scalars['Int']['output']>;
  /** True for a 2xx answer; anything else (3xx included) is a failure. Null while the outcome is not known: in flight, or interrupted (error says so; the event is sent again). */
  success: Maybe<Scalars['Boolean']['output']>;
  /** The endpoint the attempt went to; null when none was configured. */
  url: Maybe<Scalars['String']['output']>;
};

/** PENDING (being delivered or waiting for a retry) → DELIVERED (a 2xx answer) | FAILED (the retry schedule is spent). A resend makes it PENDING again. */
export type WebhookDeliveryStatus =
  | 'DELIVERED'
  | 'FAILED'
  | 'PENDING';

/** An event and its webhook delivery. Its id is the webhook-id header of every delivery of it. */
export type WebhookEvent = {
  __typename?: 'WebhookEvent';
  attemptCount: Scalars['Int']['output'];
  /** Every delivery attempt, oldest first. */
  attempts: Array<WebhookAttempt>;
  createdAt: Scalars['DateTime']['output'];
  /** The payload: the full record as the REST status endpoint returns it (snake_case, as in the webhook body). */
  data: Scalars['JSONObject']['output'];
  deliveredAt: Maybe<Scalars['DateTime']['output']>;
  /** Null: never attempted, because you had no webhook endpoint when the event was recorded. Resend it once one is set. */
  deliveryStatus: Maybe<WebhookDeliveryStatus>;
  /** "evt_…" */
  id: Scalars['ID']['output'];
  /** When the next attempt is due, while PENDING. */
  nextAttemptAt: Maybe<Scalars['DateTime']['output']>;
  /** e.g. "collection.successful", "customer.kyc.approved". */
  type: Scalars['String']['output'];
};

export type WebhookEventConnection = {
  __typename?: 'WebhookEventConnection';
  edges: Array<WebhookEventEdge>;
  pageInfo: PageInfo;
};

export type WebhookEventEdge = {
  __typename?: 'WebhookEventEdge';
  cursor: Scalars['String']['output'];
  node: WebhookEvent;
};

/** A new signing secret, shown only this once. */
export type WebhookSecretRotation = {
  __typename?: 'WebhookSecretRotation';
  /** Until then deliveries carry a second signature made with the previous secret. */
  previousSecretExpiresAt: Scalars['DateTime']['output'];
  /** "whsec_…" (Standard Webhooks). Deliveries are signed with it from now on. */
  webhookSecret: Scalars['String']['output'];
};
