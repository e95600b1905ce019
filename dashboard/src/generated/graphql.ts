/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** The account as resolveAccount takes it, and optionally its currency (the country’s). */
export type AddPayoutDestinationInput = {
  /** A bank account number, or a wallet’s phone number (CONTRACT §6a). */
  accountNumber: string;
  /** A bank’s code from banks(country). */
  bankCode?: string | null | undefined;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The country’s currency; anything else is refused. */
  currency?: string | null | undefined;
  /** A networkId from networks(…). */
  network?: string | null | undefined;
};

/** Who acted: a person (USER), an API key, an operator, or the service itself (SYSTEM). */
export type AuditActorType =
  | 'API_KEY'
  | 'OPERATOR'
  | 'SYSTEM'
  | 'USER';

/** Every given condition must hold. */
export type AuditLogFilter = {
  /** One action, e.g. "webhook.secret_rotated" (AuditLogEntry.action lists them). */
  action?: string | null | undefined;
  /** The actor’s id (a user’s or API key’s id) or label (an API key’s client id, an operator’s tool such as "ledger:adjust"), exactly. */
  actor?: string | null | undefined;
  /** At or after this time. */
  from?: string | null | undefined;
  /** Before this time. */
  to?: string | null | undefined;
};

/** Every given condition must hold. */
export type BalanceTransactionFilter = {
  /** At or after this time. */
  createdFrom?: string | null | undefined;
  /** Before this time. */
  createdTo?: string | null | undefined;
  currency?: string | null | undefined;
  type?: BalanceTransactionType | null | undefined;
};

/** What moved a balance. */
export type BalanceTransactionType =
  | 'ADJUSTMENT'
  | 'COLLECTION'
  | 'DISPUTE_REINSTATEMENT'
  | 'DISPUTE_WITHDRAWAL'
  | 'FUNDING'
  | 'PAYMENT'
  | 'PAYOUT'
  | 'PAYOUT_REVERSAL'
  | 'REFUND'
  | 'REFUND_REVERSAL'
  | 'TOP_UP'
  | 'TRANSFER'
  | 'TRANSFER_REVERSAL';

export type CardInput = {
  /** 3 digits, or 4 for American Express. */
  cvc: string;
  /** 1 to 12. */
  expMonth: number;
  /** 2 or 4 digits; with expMonth, in the future. */
  expYear: number;
  /** 12 to 19 digits (spaces or dashes between groups are fine). Sandbox test cards: 4242424242424242, 4000002500003155 (3-D Secure), 4000000000009995 (insufficient funds). */
  number: string;
  postalCode?: string | null | undefined;
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

export type CreatePaymentLinkInput = {
  /** Fixed; left out: the payer chooses within minAmount and maxAmount. */
  amount?: string | null | undefined;
  /** EMAIL is always asked. */
  collect?: Array<PaymentLinkField> | null | undefined;
  currency: string;
  description?: string | null | undefined;
  expiresAt?: string | null | undefined;
  maxAmount?: string | null | undefined;
  /** Completed payments after which the link takes no more. */
  maxPayments?: number | null | undefined;
  minAmount?: string | null | undefined;
  name: string;
  paymentMethods?: Array<PaymentMethod> | null | undefined;
  redirectUrl?: string | null | undefined;
  /** 3–64 lowercase letters, digits, -; generated when left out. */
  slug?: string | null | undefined;
};

export type CreatePayoutInput = {
  amount: string;
  currency: string;
};

/** Each field given replaces its value (null clears it); fields left out stay. fileIds replaces the list. */
export type DisputeEvidenceInput = {
  customerCommunication?: string | null | undefined;
  /** Files uploaded with uploadDisputeFile (or REST). */
  fileIds?: Array<string | number> | null | undefined;
  productDescription?: string | null | undefined;
  refundPolicy?: string | null | undefined;
  /** YYYY-MM-DD */
  serviceDate?: string | null | undefined;
  serviceDetails?: string | null | undefined;
  uncategorizedText?: string | null | undefined;
};

export type DisputeReason =
  | 'CREDIT_NOT_PROCESSED'
  | 'DUPLICATE'
  | 'FRAUDULENT'
  | 'GENERAL'
  | 'PRODUCT_NOT_RECEIVED'
  | 'PRODUCT_UNACCEPTABLE'
  | 'SUBSCRIPTION_CANCELED'
  | 'UNRECOGNIZED';

/** Stripe’s statuses. Inquiries: WARNING_NEEDS_RESPONSE → WARNING_UNDER_REVIEW → WARNING_CLOSED (or a chargeback). Chargebacks: NEEDS_RESPONSE → UNDER_REVIEW → WON | LOST. */
export type DisputeStatus =
  | 'LOST'
  | 'NEEDS_RESPONSE'
  | 'PREVENTED'
  | 'UNDER_REVIEW'
  | 'WARNING_CLOSED'
  | 'WARNING_NEEDS_RESPONSE'
  | 'WARNING_UNDER_REVIEW'
  | 'WON';

export type EnrollCustomerInput = {
  /** ISO 3166-1 alpha-2, one of the supported countries. */
  countryCode: string;
  customerId: string;
  /** YYYY-MM-DD */
  dateOfBirth?: string | null | undefined;
  /** e.g. +254; must be the country’s. */
  dialCode: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The national number: digits only, without the dial code or a leading 0 (712345678 for +254). 0712345678, 254712345678 and +254 712 345 678 are accepted and stored as 712345678. */
  phoneNumber: string;
};

/** SANDBOX (test data; simulations and test cards) or PRODUCTION (live traffic). */
export type Environment =
  | 'PRODUCTION'
  | 'SANDBOX';

/** A funding of your own balance: an account to pay into by bank transfer (POST /v1/balance/funding). */
export type FundBalanceInput = {
  /** What you will pay in, within the currency’s bank channel bounds. */
  amount: string;
  /** The currency to fund, e.g. NGN. */
  currency: string;
  /** Your own reference for the funding, unique across your transactions. */
  reference: string;
};

/** The identity document. PASSPORT, NATIONAL_ID and DRIVERS_LICENSE: any country’s, the number as written. The others are local documents: each only with its own idCountry and in its format (a wrong one is INVALID_REQUEST naming idCountry or idNumber); the number is kept in its one form. */
export type IdType =
  /** Nigeria’s Bank Verification Number, issued in NG: 11 digits */
  | 'BVN'
  | 'DRIVERS_LICENSE'
  /** Ghana Card (NIA personal identification number), issued in GH: GHA- followed by 9 digits and a check digit, e.g. GHA-123456789-0 */
  | 'GHANA_CARD'
  /** Kenya’s KRA PIN (tax PIN), issued in KE: A or P, 9 digits and a letter, e.g. A123456789Z */
  | 'KRA_PIN'
  | 'NATIONAL_ID'
  /** Nigeria’s National Identification Number, issued in NG: 11 digits */
  | 'NIN'
  | 'PASSPORT'
  /** Rwanda’s national ID number (NIDA), issued in RW: 16 digits: 1, 2 or 3, the year of birth, 7 or 8, then 10 digits, e.g. 1199080012345012 */
  | 'RWANDA_NID'
  /** South African ID number, issued in ZA: 13 digits (YYMMDD SSSS C A Z), e.g. 8001015009087 */
  | 'SA_ID'
  /** Tanzania’s National Identification Number (NIDA), issued in TZ: 20 digits starting with the date of birth as YYYYMMDD, e.g. 19900412-12345-00001-23 */
  | 'TANZANIA_NIN'
  /** Uganda’s National Identification Number (NIRA), issued in UG: 14 letters and digits, e.g. CM90012345678X */
  | 'UGANDA_NIN'
  /** Zambia’s National Registration Card number, issued in ZM: NNNNNN/DD/N as on the card (the last digit 1, 2 or 3), e.g. 123456/10/1 */
  | 'ZAMBIA_NRC';

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

export type InitiatePaymentInput = {
  /** Within the currency’s decimals. */
  amount: string;
  /** CARD only: the card, never stored. */
  card?: CardInput | null | undefined;
  /** MOMO and BANK_TRANSFER: the payer’s country, which is yours; needed only when your currency is several countries’ (XOF, XAF). */
  countryCode?: string | null | undefined;
  /** ISO 4217, e.g. "NGN". */
  currency: string;
  /** One of your customers, to link the payment to. */
  customerUuid?: string | null | undefined;
  description?: string | null | undefined;
  /** MOMO only: the payer’s network, by id ("gh_mtn") or code ("MTN"); predicted from the number’s prefix when left out. */
  network?: string | null | undefined;
  /** CARD; or, for a payer in your own country paying in its currency (no KYC), MOMO or BANK_TRANSFER. */
  paymentMethod?: PaymentMethod;
  /** MOMO only: the payer’s wallet number, in any form its country’s numbering plan reads ("+233 24 123 4567", "0241234567"). */
  phone?: string | null | undefined;
  /** Where the cardholder returns after 3-D Secure, with reference, external_reference and status in the query. */
  redirectUrl?: string | null | undefined;
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

/** PENDING (its link works) → ACCEPTED | REVOKED | EXPIRED (7 days after it was sent or last resent; a resend makes it PENDING again). */
export type InvitationStatus =
  | 'ACCEPTED'
  | 'EXPIRED'
  | 'PENDING'
  | 'REVOKED';

/** What an API key may do (docs/access.md): DEVELOPER (the default) or a narrower FINANCE, SUPPORT or VIEWER. */
export type KeyRole =
  | 'DEVELOPER'
  | 'FINANCE'
  | 'SUPPORT'
  | 'VIEWER';

export type KycAddressInput = {
  city: string;
  countryCode: string;
  line1: string;
  postalCode?: string | null | undefined;
};

export type KycStatus =
  | 'APPROVED'
  | 'PENDING'
  | 'PENDING_KYC'
  | 'REJECTED';

/** What a payment link asks the payer: EMAIL always, PHONE and NAME when chosen. */
export type PaymentLinkField =
  | 'EMAIL'
  | 'NAME'
  | 'PHONE';

/** How a domestic payment is paid. */
export type PaymentMethod =
  | 'BANK_TRANSFER'
  | 'CARD'
  | 'MOMO';

/** ACTIVE: payouts go here; PENDING_APPROVAL: a change waiting for a second member (or its cooling-off); REPLACED; CANCELED. */
export type PayoutDestinationStatus =
  | 'ACTIVE'
  | 'CANCELED'
  | 'PENDING_APPROVAL'
  | 'REPLACED';

/** How often a balance is paid out: DAILY, WEEKLY (on weeklyAnchor), MONTHLY (on monthlyAnchor) or MANUAL. */
export type PayoutInterval =
  | 'DAILY'
  | 'MANUAL'
  | 'MONTHLY'
  | 'WEEKLY';

/** interval is always given; a field left out keeps its current value. An anchor given with another interval is refused. */
export type PayoutScheduleInput = {
  currency: string;
  /** HH:MM (24 h). */
  cutoffTime?: string | null | undefined;
  /** 0 to 30. */
  delayDays?: number | null | undefined;
  interval: PayoutInterval;
  /** 1 to 31. */
  monthlyAnchor?: number | null | undefined;
  /** An IANA time zone. */
  timeZone?: string | null | undefined;
  weeklyAnchor?: Weekday | null | undefined;
};

/** PENDING, IN_TRANSIT, then PAID, FAILED (its money back) or CANCELED (never sent). */
export type PayoutStatus =
  | 'CANCELED'
  | 'FAILED'
  | 'IN_TRANSIT'
  | 'PAID'
  | 'PENDING';

/** Who holds the access token: an API key, or a person (a dashboard session). */
export type PrincipalKind =
  | 'API_KEY'
  | 'USER';

/** Direction of a channel: DEPOSIT (collection) or WITHDRAWAL (transfer). */
export type RampType =
  | 'DEPOSIT'
  | 'WITHDRAWAL';

export type RefundPaymentInput = {
  /** At most what is left to refund; omitted: all of it. */
  amount?: string | null | undefined;
  /** The payment’s reference ("pay_…") or your own. */
  paymentReference: string;
  reason: string;
  /** Your own reference for the refund, unique across your transactions. */
  reference: string;
};

/** A member’s role at a merchant (docs/access.md): OWNER (one; ownership is transferred) > ADMIN > DEVELOPER, FINANCE, SUPPORT (peers) > VIEWER. A member grants only roles at or below their own. */
export type Role =
  | 'ADMIN'
  | 'DEVELOPER'
  | 'FINANCE'
  | 'OWNER'
  | 'SUPPORT'
  | 'VIEWER';

/** How a sandbox simulation decides a transaction. */
export type SimulationOutcome =
  | 'FAILED'
  | 'SUCCESSFUL';

export type SubmitKycInput = {
  address: KycAddressInput;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** ISO 3166-1 alpha-2 of the issuing country. */
  idCountry: string;
  idNumber: string;
  idType: IdType;
};

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

/** PENDING (being delivered or waiting for a retry) → DELIVERED (a 2xx answer) | FAILED (the retry schedule is spent). A resend makes it PENDING again. */
export type WebhookDeliveryStatus =
  | 'DELIVERED'
  | 'FAILED'
  | 'PENDING';

export type Weekday =
  | 'FRIDAY'
  | 'MONDAY'
  | 'SATURDAY'
  | 'SUNDAY'
  | 'THURSDAY'
  | 'TUESDAY'
  | 'WEDNESDAY';

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { kind: PrincipalKind, role: Role, enrolmentOnly: boolean, permissions: Array<string>, merchantId: string, merchantName: string, user: { id: string, email: string, name: string, emailVerified: boolean, twoFactorEnabled: boolean } | null, memberships: Array<{ merchantId: string, merchantName: string, role: Role }> } };

export type EnvironmentQueryVariables = Exact<{ [key: string]: never; }>;


export type EnvironmentQuery = { environment: Environment };

export type FundingFieldsFragment = { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, fee: string | null, expiresAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, localCode: string | null } | null };

export type FundBalanceMutationVariables = Exact<{
  input: FundBalanceInput;
}>;


export type FundBalanceMutation = { fundBalance: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, fee: string | null, expiresAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, localCode: string | null } | null } };

export type SimulateFundingArrivalMutationVariables = Exact<{
  r: string;
}>;


export type SimulateFundingArrivalMutation = { simulateTransaction: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, fee: string | null, expiresAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, localCode: string | null } | null } };

export type FundingDecidedSubscriptionVariables = Exact<{
  r?: string | null | undefined;
}>;


export type FundingDecidedSubscription = { transactionStatusChanged: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, fee: string | null, expiresAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, localCode: string | null } | null } };

export type FundingCurrenciesQueryVariables = Exact<{ [key: string]: never; }>;


export type FundingCurrenciesQuery = { countries: Array<{ currency: string }> };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, label: string, role: KeyRole, clientId: string, createdAt: string, createdBy: string | null, lastUsedAt: string | null, revokedAt: string | null }> };

export type CreateApiKeyMutationVariables = Exact<{
  label: string;
  role?: KeyRole | null | undefined;
}>;


export type CreateApiKeyMutation = { createApiKey: { clientSecret: string, apiKey: { id: string, clientId: string } } };

export type RotateApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RotateApiKeyMutation = { rotateApiKey: { clientSecret: string, apiKey: { id: string, clientId: string } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, revokedAt: string | null } };

export type AuditLogEntryFieldsFragment = { id: string, createdAt: string, action: string, actorType: AuditActorType, actorId: string | null, actorLabel: string | null, role: string | null, targetType: string | null, targetId: string | null, ip: string | null, userAgent: string | null, before: Record<string, unknown> | null, after: Record<string, unknown> | null };

export type AuditLogQueryVariables = Exact<{
  filter?: AuditLogFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AuditLogQuery = { auditLog: { edges: Array<{ node: { id: string, createdAt: string, action: string, actorType: AuditActorType, actorId: string | null, actorLabel: string | null, role: string | null, targetType: string | null, targetId: string | null, ip: string | null, userAgent: string | null, before: Record<string, unknown> | null, after: Record<string, unknown> | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type AuditLogPeopleQueryVariables = Exact<{ [key: string]: never; }>;


export type AuditLogPeopleQuery = { teamMembers: Array<{ userId: string, email: string }> };

export type BalanceTransactionsQueryVariables = Exact<{
  filter?: BalanceTransactionFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type BalanceTransactionsQuery = { balanceTransactions: { edges: Array<{ node: { id: string, type: BalanceTransactionType, currency: string, amount: string, fee: string, net: string, balanceAfter: string, sourceReference: string | null, createdAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CustomerRowFragment = { customerUuid: string, customerId: string, firstName: string, lastName: string, countryCode: string, kycStatus: KycStatus, overallKycStatus: KycStatus, createdAt: string };

export type CustomersQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type CustomersQuery = { customers: { edges: Array<{ node: { customerUuid: string, customerId: string, firstName: string, lastName: string, countryCode: string, kycStatus: KycStatus, overallKycStatus: KycStatus, createdAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CustomerQueryVariables = Exact<{
  u: string;
}>;


export type CustomerQuery = { customer: { email: string, phoneNumber: string, dialCode: string, dateOfBirth: string | null, customerUuid: string, customerId: string, firstName: string, lastName: string, countryCode: string, kycStatus: KycStatus, overallKycStatus: KycStatus, createdAt: string }, kyc: { kycStatus: KycStatus, overallKycStatus: KycStatus, submittedAt: string | null, reviewedAt: string | null, rejectionReason: string | null } };

export type DisputeDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type DisputeDetailQuery = { dispute: { funds: string, id: string, paymentReference: string, amount: string, currency: string, reason: DisputeReason, status: DisputeStatus, evidenceDueBy: string | null, submissionCount: number, provider: string, providerStatus: string | null, fee: string, createdAt: string, closedAt: string | null, evidence: { productDescription: string | null, customerCommunication: string | null, refundPolicy: string | null, serviceDate: string | null, serviceDetails: string | null, uncategorizedText: string | null, files: Array<{ id: string, filename: string, contentType: string, size: number }> } } };

export type DisputedPaymentQueryVariables = Exact<{
  r: string;
}>;


export type DisputedPaymentQuery = { transaction: { reference: string, externalReference: string, status: TransactionStatus, amount: string | null, currency: string | null, createdAt: string, card: { brand: string, last4: string } | null } };

export type UpdateDisputeEvidenceMutationVariables = Exact<{
  id: string | number;
  input: DisputeEvidenceInput;
}>;


export type UpdateDisputeEvidenceMutation = { updateDisputeEvidence: { id: string } };

export type SubmitDisputeMutationVariables = Exact<{
  id: string | number;
}>;


export type SubmitDisputeMutation = { submitDispute: { id: string, status: DisputeStatus } };

export type AcceptDisputeMutationVariables = Exact<{
  id: string | number;
}>;


export type AcceptDisputeMutation = { acceptDispute: { id: string, status: DisputeStatus } };

export type DisputesQueryVariables = Exact<{
  status?: DisputeStatus | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DisputesQuery = { disputes: { edges: Array<{ node: { id: string, paymentReference: string, amount: string, currency: string, reason: DisputeReason, status: DisputeStatus, evidenceDueBy: string | null, submissionCount: number, provider: string, providerStatus: string | null, fee: string, createdAt: string, closedAt: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type OpenDisputeCountQueryVariables = Exact<{ [key: string]: never; }>;


export type OpenDisputeCountQuery = { openDisputeCount: number };

export type InvitationsQueryVariables = Exact<{ [key: string]: never; }>;


export type InvitationsQuery = { invitations: Array<{ id: string, email: string, role: Role, status: InvitationStatus, createdAt: string, expiresAt: string }> };

export type InviteMemberMutationVariables = Exact<{
  email: string;
  role: Role;
}>;


export type InviteMemberMutation = { inviteMember: { id: string, email: string } };

export type ResendInvitationMutationVariables = Exact<{
  id: string | number;
}>;


export type ResendInvitationMutation = { resendInvitation: { id: string, expiresAt: string } };

export type RevokeInvitationMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeInvitationMutation = { revokeInvitation: { id: string, status: InvitationStatus } };

export type UpcomingPayoutQueryVariables = Exact<{
  currency: string;
}>;


export type UpcomingPayoutQuery = { upcomingPayout: { currency: string, scheduledAt: string | null, expectedAmount: string, minimumAmount: string, destination: string | null } };

export type ActivityQueryVariables = Exact<{
  days?: number | null | undefined;
}>;


export type ActivityQuery = { activity: { finalCount: number, successfulCount: number, successRate: number | null, days: Array<{ day: string, currency: string, collected: string, paidOut: string }> } };

export type PaymentLinksQueryVariables = Exact<{ [key: string]: never; }>;


export type PaymentLinksQuery = { paymentLinks: { edges: Array<{ node: { id: string, name: string, slug: string, url: string, qrSvg: string, active: boolean, amount: string | null, minAmount: string | null, maxAmount: string | null, currency: string, paymentsCount: number, maxPayments: number | null, expiresAt: string | null, createdAt: string } }> } };

export type CreatePaymentLinkMutationVariables = Exact<{
  input: CreatePaymentLinkInput;
}>;


export type CreatePaymentLinkMutation = { createPaymentLink: { id: string, url: string } };

export type DeactivatePaymentLinkMutationVariables = Exact<{
  id: string | number;
}>;


export type DeactivatePaymentLinkMutation = { deactivatePaymentLink: { id: string, active: boolean } };

export type PaymentLinkPaymentsQueryVariables = Exact<{
  link: string;
}>;


export type PaymentLinkPaymentsQuery = { transactions: { edges: Array<{ node: { reference: string, externalReference: string, status: TransactionStatus, amount: string | null, currency: string | null, createdAt: string } }> } };

export type PayoutDestinationsQueryVariables = Exact<{ [key: string]: never; }>;


export type PayoutDestinationsQuery = { payoutDestinations: Array<{ id: string, currency: string, accountType: ChannelType, countryCode: string, institution: string, masked: string, accountName: string, status: PayoutDestinationStatus, effectiveAt: string | null, createdAt: string, createdBy: { id: string, email: string | null }, approvedBy: { email: string | null } | null }> };

export type AddPayoutDestinationMutationVariables = Exact<{
  input: AddPayoutDestinationInput;
}>;


export type AddPayoutDestinationMutation = { addPayoutDestination: { id: string, masked: string, accountName: string, status: PayoutDestinationStatus, effectiveAt: string | null } };

export type ApprovePayoutDestinationMutationVariables = Exact<{
  id: string | number;
}>;


export type ApprovePayoutDestinationMutation = { approvePayoutDestination: { id: string, status: PayoutDestinationStatus } };

export type CancelPayoutDestinationMutationVariables = Exact<{
  id: string | number;
}>;


export type CancelPayoutDestinationMutation = { cancelPayoutDestination: { id: string, status: PayoutDestinationStatus } };

export type PayoutQueryVariables = Exact<{
  id: string | number;
}>;


export type PayoutQuery = { payout: { id: string, createdAt: string, amount: string, fee: string, currency: string, status: PayoutStatus, automatic: boolean, window: string | null, expectedArrivalAt: string, completedAt: string | null, failureReason: string | null, traceReference: string | null, transactionReference: string | null, report: { currency: string, grossCollected: string, fees: string, refunds: string, transfers: string, adjustments: string, payouts: string, carriedIn: string, carriedOut: string, net: string, balanceTransactions: number }, balanceTransactions: Array<{ id: string, type: BalanceTransactionType, currency: string, amount: string, fee: string, net: string, balanceAfter: string, sourceReference: string | null, createdAt: string }>, destination: { accountName: string, accountNumberMasked: string, networkName: string | null, accountType: ChannelType, countryCode: string } | null } };

export type PayoutScheduleQueryVariables = Exact<{
  currency: string;
}>;


export type PayoutScheduleQuery = { payoutSchedule: { currency: string, interval: PayoutInterval, weeklyAnchor: Weekday | null, monthlyAnchor: number | null, delayDays: number, cutoffTime: string, timeZone: string, minimumAmount: string, nextPayoutAt: string | null, isDefault: boolean } };

export type PayoutScheduleFieldsFragment = { currency: string, interval: PayoutInterval, weeklyAnchor: Weekday | null, monthlyAnchor: number | null, delayDays: number, cutoffTime: string, timeZone: string, minimumAmount: string, nextPayoutAt: string | null, isDefault: boolean };

export type UpdatePayoutScheduleMutationVariables = Exact<{
  input: PayoutScheduleInput;
}>;


export type UpdatePayoutScheduleMutation = { updatePayoutSchedule: { currency: string, interval: PayoutInterval, weeklyAnchor: Weekday | null, monthlyAnchor: number | null, delayDays: number, cutoffTime: string, timeZone: string, minimumAmount: string, nextPayoutAt: string | null, isDefault: boolean } };

export type PayoutFieldsFragment = { id: string, createdAt: string, amount: string, fee: string, currency: string, status: PayoutStatus, automatic: boolean, window: string | null, expectedArrivalAt: string, completedAt: string | null, failureReason: string | null, traceReference: string | null, transactionReference: string | null, destination: { accountName: string, accountNumberMasked: string, networkName: string | null, accountType: ChannelType, countryCode: string } | null };

export type PayoutsQueryVariables = Exact<{
  currency?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type PayoutsQuery = { payouts: { edges: Array<{ node: { id: string, createdAt: string, amount: string, fee: string, currency: string, status: PayoutStatus, automatic: boolean, window: string | null, expectedArrivalAt: string, completedAt: string | null, failureReason: string | null, traceReference: string | null, transactionReference: string | null, destination: { accountName: string, accountNumberMasked: string, networkName: string | null, accountType: ChannelType, countryCode: string } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreatePayoutMutationVariables = Exact<{
  input: CreatePayoutInput;
}>;


export type CreatePayoutMutation = { createPayout: { id: string, createdAt: string, amount: string, fee: string, currency: string, status: PayoutStatus, automatic: boolean, window: string | null, expectedArrivalAt: string, completedAt: string | null, failureReason: string | null, traceReference: string | null, transactionReference: string | null, destination: { accountName: string, accountNumberMasked: string, networkName: string | null, accountType: ChannelType, countryCode: string } | null } };

export type MySessionsQueryVariables = Exact<{ [key: string]: never; }>;


export type MySessionsQuery = { mySessions: Array<{ id: string, userAgent: string | null, ip: string | null, createdAt: string, lastSeenAt: string | null, current: boolean }> };

export type EndSessionMutationVariables = Exact<{
  id: string | number;
}>;


export type EndSessionMutation = { endSession: boolean };

export type EndOtherSessionsMutationVariables = Exact<{ [key: string]: never; }>;


export type EndOtherSessionsMutation = { endOtherSessions: number };

export type ChangePasswordMutationVariables = Exact<{
  currentPassword: string;
  newPassword: string;
}>;


export type ChangePasswordMutation = { changePassword: boolean };

export type EnrollCustomerMutationVariables = Exact<{
  input: EnrollCustomerInput;
}>;


export type EnrollCustomerMutation = { enrollCustomer: { customerUuid: string, firstName: string, lastName: string } };

export type SubmitKycMutationVariables = Exact<{
  u: string;
  input: SubmitKycInput;
}>;


export type SubmitKycMutation = { submitKyc: { kycStatus: KycStatus } };

export type PaymentFieldsFragment = { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null };

export type PaymentChangedSubscriptionVariables = Exact<{
  r?: string | null | undefined;
}>;


export type PaymentChangedSubscription = { transactionStatusChanged: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null } };

export type InitiatePaymentMutationVariables = Exact<{
  input: InitiatePaymentInput;
}>;


export type InitiatePaymentMutation = { initiatePayment: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, nextAction: { url: string } | null } };

export type SandboxTransactionFieldsFragment = { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null };

export type SandboxCollectMutationVariables = Exact<{
  input: InitiateCollectionInput;
}>;


export type SandboxCollectMutation = { initiateCollection: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null } };

export type SandboxTransferMutationVariables = Exact<{
  input: InitiateTransferInput;
}>;


export type SandboxTransferMutation = { initiateTransfer: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null } };

export type SandboxKycChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type SandboxKycChangedSubscription = { kycStatusChanged: { customerUuid: string, kycStatus: KycStatus } };

export type TopUpBalanceMutationVariables = Exact<{
  currency: string;
  amount: string;
}>;


export type TopUpBalanceMutation = { topUpBalance: { currency: string, available: string, pending: string, reserved: string, disputed: string, owed: string } };

export type SandboxCountriesQueryVariables = Exact<{ [key: string]: never; }>;


export type SandboxCountriesQuery = { countries: Array<{ countryCode: string, name: string, currency: string, dialCode: string, exampleMobileNumber: string }> };

export type SandboxChannelsQueryVariables = Exact<{
  country: string;
  ramp: RampType;
}>;


export type SandboxChannelsQuery = { channels: Array<{ channelId: string, channelType: ChannelType, currency: string, minAmount: string, status: ChannelStatus }> };

export type SandboxNetworksQueryVariables = Exact<{
  country: string;
  type: ChannelType;
}>;


export type SandboxNetworksQuery = { networks: Array<{ networkId: string, name: string }> };

export type SandboxCustomersQueryVariables = Exact<{ [key: string]: never; }>;


export type SandboxCustomersQuery = { customers: { edges: Array<{ node: { customerUuid: string, firstName: string, lastName: string, kycStatus: KycStatus } }> } };

export type TeamMembersQueryVariables = Exact<{ [key: string]: never; }>;


export type TeamMembersQuery = { teamMembers: Array<{ id: string, userId: string, email: string, name: string, role: Role, twoFactorEnabled: boolean, lastSignInAt: string | null, createdAt: string }> };

export type TeamSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type TeamSettingsQuery = { teamSettings: { twoFactorRequired: boolean } };

export type ChangeMemberRoleMutationVariables = Exact<{
  id: string | number;
  role: Role;
}>;


export type ChangeMemberRoleMutation = { changeMemberRole: { id: string, role: Role } };

export type RemoveMemberMutationVariables = Exact<{
  id: string | number;
}>;


export type RemoveMemberMutation = { removeMember: boolean };

export type TransferOwnershipMutationVariables = Exact<{
  id: string | number;
}>;


export type TransferOwnershipMutation = { transferOwnership: { id: string, role: Role } };

export type SetTwoFactorRequiredMutationVariables = Exact<{
  required: boolean;
}>;


export type SetTwoFactorRequiredMutation = { setTwoFactorRequired: boolean };

export type TransactionDetailQueryVariables = Exact<{
  r: string;
}>;


export type TransactionDetailQuery = { transaction: { rate: string | null, fee: string | null, accountNumber: string | null, countryCode: string | null, networkId: string | null, expiresAt: string | null, amountRefunded: string | null, paymentReference: string | null, paymentMethod: PaymentMethod | null, checkoutSessionId: string | null, reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, customerUuid: string | null, accountType: ChannelType | null, createdAt: string, updatedAt: string, completedAt: string | null, bankInfo: { accountName: string, accountNumber: string, bankName: string, bankCode: string } | null, card: { brand: string, last4: string } | null, history: Array<{ fromStatus: TransactionStatus | null, toStatus: TransactionStatus, reason: string | null, occurredAt: string }>, customer: { firstName: string, lastName: string, email: string } | null, counterparty: { name: string | null, account: string | null } } };

export type NetworkNamesQueryVariables = Exact<{
  country: string;
  type: ChannelType;
}>;


export type NetworkNamesQuery = { networks: Array<{ networkId: string, name: string }> };

export type RefundFieldsFragment = { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null };

export type RefundPaymentMutationVariables = Exact<{
  input: RefundPaymentInput;
}>;


export type RefundPaymentMutation = { refundPayment: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null } };

export type RefundChangedSubscriptionVariables = Exact<{
  r?: string | null | undefined;
}>;


export type RefundChangedSubscription = { transactionStatusChanged: { reference: string, externalReference: string, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null } };

export type TransactionStatusChangedSubscriptionVariables = Exact<{
  r?: string | null | undefined;
}>;


export type TransactionStatusChangedSubscription = { transactionStatusChanged: { status: TransactionStatus } };

export type SimulateTransactionMutationVariables = Exact<{
  r: string;
  o: SimulationOutcome;
}>;


export type SimulateTransactionMutation = { simulateTransaction: { status: TransactionStatus } };

export type PaymentDisputesQueryVariables = Exact<{
  r: string;
}>;


export type PaymentDisputesQuery = { disputes: { edges: Array<{ node: { id: string, status: DisputeStatus } }> } };

export type TransactionsQueryVariables = Exact<{
  filter?: TransactionFilter | null | undefined;
  search?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type TransactionsQuery = { transactions: { edges: Array<{ node: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, customerUuid: string | null, accountType: ChannelType | null, createdAt: string, updatedAt: string, completedAt: string | null, customer: { firstName: string, lastName: string, email: string } | null, counterparty: { name: string | null, account: string | null } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type BeginTwoFactorMutationVariables = Exact<{ [key: string]: never; }>;


export type BeginTwoFactorMutation = { beginTwoFactorEnrolment: { secret: string, otpauthUri: string, qrSvg: string } };

export type ConfirmTwoFactorMutationVariables = Exact<{
  code: string;
}>;


export type ConfirmTwoFactorMutation = { confirmTwoFactor: Array<string> };

export type DisableTwoFactorMutationVariables = Exact<{
  password: string;
  code: string;
}>;


export type DisableTwoFactorMutation = { disableTwoFactor: boolean };

export type WebhookSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookSettingsQuery = { webhookEventTypes: Array<string>, merchant: { webhookUrl: string | null, webhookEventTypes: Array<string> } };

export type ChooseWebhookEventTypesMutationVariables = Exact<{
  url?: string | null | undefined;
  eventTypes?: Array<string> | string | null | undefined;
}>;


export type ChooseWebhookEventTypesMutation = { setWebhookEndpoint: { webhookUrl: string | null, webhookEventTypes: Array<string> } };

export type SendWebhookTestEventMutationVariables = Exact<{ [key: string]: never; }>;


export type SendWebhookTestEventMutation = { sendWebhookTestEvent: { id: string, deliveryStatus: WebhookDeliveryStatus | null, attempts: Array<{ statusCode: number | null, latencyMs: number | null, success: boolean | null, error: string | null }> } };

export type WebhookSecretOverlapQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookSecretOverlapQuery = { merchant: { webhookSecretOverlapUntil: string | null } };

export type RotateWebhookSecretMutationVariables = Exact<{ [key: string]: never; }>;


export type RotateWebhookSecretMutation = { rotateWebhookSecret: { webhookSecret: string, previousSecretExpiresAt: string } };

export type WebhookEventRowFragment = { id: string, type: string, reference: string | null, customerUuid: string | null, createdAt: string, deliveryStatus: WebhookDeliveryStatus | null, attemptCount: number, deliveredAt: string | null, nextAttemptAt: string | null, customer: { firstName: string, lastName: string } | null };

export type WebhookEventFullFragment = { data: Record<string, unknown>, id: string, type: string, reference: string | null, customerUuid: string | null, createdAt: string, deliveryStatus: WebhookDeliveryStatus | null, attemptCount: number, deliveredAt: string | null, nextAttemptAt: string | null, attempts: Array<{ attemptNumber: number, attemptedAt: string, url: string | null, statusCode: number | null, latencyMs: number | null, success: boolean | null, error: string | null }>, customer: { firstName: string, lastName: string } | null };

export type WebhookEventTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEventTypesQuery = { webhookEventTypes: Array<string> };

export type WebhookEndpointQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEndpointQuery = { merchant: { webhookUrl: string | null } };

export type SetWebhookEndpointMutationVariables = Exact<{
  url?: string | null | undefined;
}>;


export type SetWebhookEndpointMutation = { setWebhookEndpoint: { webhookUrl: string | null } };

export type WebhookEventsQueryVariables = Exact<{
  type?: string | null | undefined;
}>;


export type WebhookEventsQuery = { webhookEvents: { edges: Array<{ node: { id: string, type: string, reference: string | null, customerUuid: string | null, createdAt: string, deliveryStatus: WebhookDeliveryStatus | null, attemptCount: number, deliveredAt: string | null, nextAttemptAt: string | null, customer: { firstName: string, lastName: string } | null } }> } };

export type WebhookEventDetailQueryVariables = Exact<{
  id: string;
}>;


export type WebhookEventDetailQuery = { webhookEvent: { data: Record<string, unknown>, id: string, type: string, reference: string | null, customerUuid: string | null, createdAt: string, deliveryStatus: WebhookDeliveryStatus | null, attemptCount: number, deliveredAt: string | null, nextAttemptAt: string | null, attempts: Array<{ attemptNumber: number, attemptedAt: string, url: string | null, statusCode: number | null, latencyMs: number | null, success: boolean | null, error: string | null }>, customer: { firstName: string, lastName: string } | null } };

export type ResendWebhookEventMutationVariables = Exact<{
  id: string;
}>;


export type ResendWebhookEventMutation = { resendWebhookEvent: { data: Record<string, unknown>, id: string, type: string, reference: string | null, customerUuid: string | null, createdAt: string, deliveryStatus: WebhookDeliveryStatus | null, attemptCount: number, deliveredAt: string | null, nextAttemptAt: string | null, attempts: Array<{ attemptNumber: number, attemptedAt: string, url: string | null, statusCode: number | null, latencyMs: number | null, success: boolean | null, error: string | null }>, customer: { firstName: string, lastName: string } | null } };

export type DisputeFieldsFragment = { id: string, paymentReference: string, amount: string, currency: string, reason: DisputeReason, status: DisputeStatus, evidenceDueBy: string | null, submissionCount: number, provider: string, providerStatus: string | null, fee: string, createdAt: string, closedAt: string | null };

export type DisputeChangedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DisputeChangedSubscription = { disputeChanged: { id: string, paymentReference: string, amount: string, currency: string, reason: DisputeReason, status: DisputeStatus, evidenceDueBy: string | null, submissionCount: number, provider: string, providerStatus: string | null, fee: string, createdAt: string, closedAt: string | null } };

export type BalanceFieldsFragment = { currency: string, available: string, pending: string, reserved: string, disputed: string, owed: string };

export type BalancesQueryVariables = Exact<{ [key: string]: never; }>;


export type BalancesQuery = { balances: Array<{ currency: string, available: string, pending: string, reserved: string, disputed: string, owed: string }> };

export type BalanceChangedSubscriptionVariables = Exact<{
  currency?: string | null | undefined;
}>;


export type BalanceChangedSubscription = { balanceChanged: { currency: string, available: string, pending: string, reserved: string, disputed: string, owed: string } };

export type BalanceTransactionFieldsFragment = { id: string, type: BalanceTransactionType, currency: string, amount: string, fee: string, net: string, balanceAfter: string, sourceReference: string | null, createdAt: string };

export type TransactionFieldsFragment = { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, customerUuid: string | null, accountType: ChannelType | null, createdAt: string, updatedAt: string, completedAt: string | null, customer: { firstName: string, lastName: string, email: string } | null, counterparty: { name: string | null, account: string | null } };

export type TransactionChangedSubscriptionVariables = Exact<{
  r?: string | null | undefined;
}>;


export type TransactionChangedSubscription = { transactionStatusChanged: { reference: string, externalReference: string, type: TransactionType, status: TransactionStatus, failureReason: string | null, amount: string | null, currency: string | null, sourceAmount: string | null, sourceCurrency: string | null, destinationAmount: string | null, destinationCurrency: string | null, customerUuid: string | null, accountType: ChannelType | null, createdAt: string, updatedAt: string, completedAt: string | null, customer: { firstName: string, lastName: string, email: string } | null, counterparty: { name: string | null, account: string | null } } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const FundingFieldsFragmentDoc = new TypedDocumentString(`
    fragment FundingFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  fee
  expiresAt
  bankInfo {
    accountName
    accountNumber
    bankName
    localCode
  }
}
    `, {"fragmentName":"FundingFields"}) as unknown as TypedDocumentString<FundingFieldsFragment, unknown>;
export const AuditLogEntryFieldsFragmentDoc = new TypedDocumentString(`
    fragment AuditLogEntryFields on AuditLogEntry {
  id
  createdAt
  action
  actorType
  actorId
  actorLabel
  role
  targetType
  targetId
  ip
  userAgent
  before
  after
}
    `, {"fragmentName":"AuditLogEntryFields"}) as unknown as TypedDocumentString<AuditLogEntryFieldsFragment, unknown>;
export const CustomerRowFragmentDoc = new TypedDocumentString(`
    fragment CustomerRow on Customer {
  customerUuid
  customerId
  firstName
  lastName
  countryCode
  kycStatus
  overallKycStatus
  createdAt
}
    `, {"fragmentName":"CustomerRow"}) as unknown as TypedDocumentString<CustomerRowFragment, unknown>;
export const PayoutScheduleFieldsFragmentDoc = new TypedDocumentString(`
    fragment PayoutScheduleFields on PayoutSchedule {
  currency
  interval
  weeklyAnchor
  monthlyAnchor
  delayDays
  cutoffTime
  timeZone
  minimumAmount
  nextPayoutAt
  isDefault
}
    `, {"fragmentName":"PayoutScheduleFields"}) as unknown as TypedDocumentString<PayoutScheduleFieldsFragment, unknown>;
export const PayoutFieldsFragmentDoc = new TypedDocumentString(`
    fragment PayoutFields on Payout {
  id
  createdAt
  amount
  fee
  currency
  status
  automatic
  window
  expectedArrivalAt
  completedAt
  failureReason
  traceReference
  transactionReference
  destination {
    accountName
    accountNumberMasked
    networkName
    accountType
    countryCode
  }
}
    `, {"fragmentName":"PayoutFields"}) as unknown as TypedDocumentString<PayoutFieldsFragment, unknown>;
export const PaymentFieldsFragmentDoc = new TypedDocumentString(`
    fragment PaymentFields on Transaction {
  reference
  externalReference
  status
  failureReason
}
    `, {"fragmentName":"PaymentFields"}) as unknown as TypedDocumentString<PaymentFieldsFragment, unknown>;
export const SandboxTransactionFieldsFragmentDoc = new TypedDocumentString(`
    fragment SandboxTransactionFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  sourceAmount
  sourceCurrency
  destinationAmount
  destinationCurrency
}
    `, {"fragmentName":"SandboxTransactionFields"}) as unknown as TypedDocumentString<SandboxTransactionFieldsFragment, unknown>;
export const RefundFieldsFragmentDoc = new TypedDocumentString(`
    fragment RefundFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
}
    `, {"fragmentName":"RefundFields"}) as unknown as TypedDocumentString<RefundFieldsFragment, unknown>;
export const WebhookEventRowFragmentDoc = new TypedDocumentString(`
    fragment WebhookEventRow on WebhookEvent {
  id
  type
  reference
  customerUuid
  customer {
    firstName
    lastName
  }
  createdAt
  deliveryStatus
  attemptCount
  deliveredAt
  nextAttemptAt
}
    `, {"fragmentName":"WebhookEventRow"}) as unknown as TypedDocumentString<WebhookEventRowFragment, unknown>;
export const WebhookEventFullFragmentDoc = new TypedDocumentString(`
    fragment WebhookEventFull on WebhookEvent {
  ...WebhookEventRow
  data
  attempts {
    attemptNumber
    attemptedAt
    url
    statusCode
    latencyMs
    success
    error
  }
}
    fragment WebhookEventRow on WebhookEvent {
  id
  type
  reference
  customerUuid
  customer {
    firstName
    lastName
  }
  createdAt
  deliveryStatus
  attemptCount
  deliveredAt
  nextAttemptAt
}`, {"fragmentName":"WebhookEventFull"}) as unknown as TypedDocumentString<WebhookEventFullFragment, unknown>;
export const DisputeFieldsFragmentDoc = new TypedDocumentString(`
    fragment DisputeFields on Dispute {
  id
  paymentReference
  amount
  currency
  reason
  status
  evidenceDueBy
  submissionCount
  provider
  providerStatus
  fee
  createdAt
  closedAt
}
    `, {"fragmentName":"DisputeFields"}) as unknown as TypedDocumentString<DisputeFieldsFragment, unknown>;
export const BalanceFieldsFragmentDoc = new TypedDocumentString(`
    fragment BalanceFields on Balance {
  currency
  available
  pending
  reserved
  disputed
  owed
}
    `, {"fragmentName":"BalanceFields"}) as unknown as TypedDocumentString<BalanceFieldsFragment, unknown>;
export const BalanceTransactionFieldsFragmentDoc = new TypedDocumentString(`
    fragment BalanceTransactionFields on BalanceTransaction {
  id
  type
  currency
  amount
  fee
  net
  balanceAfter
  sourceReference
  createdAt
}
    `, {"fragmentName":"BalanceTransactionFields"}) as unknown as TypedDocumentString<BalanceTransactionFieldsFragment, unknown>;
export const TransactionFieldsFragmentDoc = new TypedDocumentString(`
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
    `, {"fragmentName":"TransactionFields"}) as unknown as TypedDocumentString<TransactionFieldsFragment, unknown>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    kind
    role
    enrolmentOnly
    permissions
    merchantId
    merchantName
    user {
      id
      email
      name
      emailVerified
      twoFactorEnabled
    }
    memberships {
      merchantId
      merchantName
      role
    }
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const EnvironmentDocument = new TypedDocumentString(`
    query Environment {
  environment
}
    `) as unknown as TypedDocumentString<EnvironmentQuery, EnvironmentQueryVariables>;
export const FundBalanceDocument = new TypedDocumentString(`
    mutation FundBalance($input: FundBalanceInput!) {
  fundBalance(input: $input) {
    ...FundingFields
  }
}
    fragment FundingFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  fee
  expiresAt
  bankInfo {
    accountName
    accountNumber
    bankName
    localCode
  }
}`) as unknown as TypedDocumentString<FundBalanceMutation, FundBalanceMutationVariables>;
export const SimulateFundingArrivalDocument = new TypedDocumentString(`
    mutation SimulateFundingArrival($r: String!) {
  simulateTransaction(reference: $r, outcome: SUCCESSFUL) {
    ...FundingFields
  }
}
    fragment FundingFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  fee
  expiresAt
  bankInfo {
    accountName
    accountNumber
    bankName
    localCode
  }
}`) as unknown as TypedDocumentString<SimulateFundingArrivalMutation, SimulateFundingArrivalMutationVariables>;
export const FundingDecidedDocument = new TypedDocumentString(`
    subscription FundingDecided($r: String) {
  transactionStatusChanged(reference: $r, statuses: [SUCCESSFUL, FAILED, EXPIRED]) {
    ...FundingFields
  }
}
    fragment FundingFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  fee
  expiresAt
  bankInfo {
    accountName
    accountNumber
    bankName
    localCode
  }
}`) as unknown as TypedDocumentString<FundingDecidedSubscription, FundingDecidedSubscriptionVariables>;
export const FundingCurrenciesDocument = new TypedDocumentString(`
    query FundingCurrencies {
  countries {
    currency
  }
}
    `) as unknown as TypedDocumentString<FundingCurrenciesQuery, FundingCurrenciesQueryVariables>;
export const ApiKeysDocument = new TypedDocumentString(`
    query ApiKeys {
  apiKeys {
    id
    label
    role
    clientId
    createdAt
    createdBy
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = new TypedDocumentString(`
    mutation CreateApiKey($label: String!, $role: KeyRole) {
  createApiKey(label: $label, role: $role) {
    apiKey {
      id
      clientId
    }
    clientSecret
  }
}
    `) as unknown as TypedDocumentString<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RotateApiKeyDocument = new TypedDocumentString(`
    mutation RotateApiKey($id: ID!) {
  rotateApiKey(id: $id) {
    apiKey {
      id
      clientId
    }
    clientSecret
  }
}
    `) as unknown as TypedDocumentString<RotateApiKeyMutation, RotateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = new TypedDocumentString(`
    mutation RevokeApiKey($id: ID!) {
  revokeApiKey(id: $id) {
    id
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const AuditLogDocument = new TypedDocumentString(`
    query AuditLog($filter: AuditLogFilter, $first: Int, $after: String) {
  auditLog(filter: $filter, first: $first, after: $after) {
    edges {
      node {
        ...AuditLogEntryFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment AuditLogEntryFields on AuditLogEntry {
  id
  createdAt
  action
  actorType
  actorId
  actorLabel
  role
  targetType
  targetId
  ip
  userAgent
  before
  after
}`) as unknown as TypedDocumentString<AuditLogQuery, AuditLogQueryVariables>;
export const AuditLogPeopleDocument = new TypedDocumentString(`
    query AuditLogPeople {
  teamMembers {
    userId
    email
  }
}
    `) as unknown as TypedDocumentString<AuditLogPeopleQuery, AuditLogPeopleQueryVariables>;
export const BalanceTransactionsDocument = new TypedDocumentString(`
    query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {
  balanceTransactions(filter: $filter, first: $first, after: $after) {
    edges {
      node {
        ...BalanceTransactionFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment BalanceTransactionFields on BalanceTransaction {
  id
  type
  currency
  amount
  fee
  net
  balanceAfter
  sourceReference
  createdAt
}`) as unknown as TypedDocumentString<BalanceTransactionsQuery, BalanceTransactionsQueryVariables>;
export const CustomersDocument = new TypedDocumentString(`
    query Customers($after: String) {
  customers(first: 20, after: $after) {
    edges {
      node {
        ...CustomerRow
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment CustomerRow on Customer {
  customerUuid
  customerId
  firstName
  lastName
  countryCode
  kycStatus
  overallKycStatus
  createdAt
}`) as unknown as TypedDocumentString<CustomersQuery, CustomersQueryVariables>;
export const CustomerDocument = new TypedDocumentString(`
    query Customer($u: String!) {
  customer(uuid: $u) {
    ...CustomerRow
    email
    phoneNumber
    dialCode
    dateOfBirth
  }
  kyc(customerUuid: $u) {
    kycStatus
    overallKycStatus
    submittedAt
    reviewedAt
    rejectionReason
  }
}
    fragment CustomerRow on Customer {
  customerUuid
  customerId
  firstName
  lastName
  countryCode
  kycStatus
  overallKycStatus
  createdAt
}`) as unknown as TypedDocumentString<CustomerQuery, CustomerQueryVariables>;
export const DisputeDetailDocument = new TypedDocumentString(`
    query DisputeDetail($id: ID!) {
  dispute(id: $id) {
    ...DisputeFields
    funds
    evidence {
      productDescription
      customerCommunication
      refundPolicy
      serviceDate
      serviceDetails
      uncategorizedText
      files {
        id
        filename
        contentType
        size
      }
    }
  }
}
    fragment DisputeFields on Dispute {
  id
  paymentReference
  amount
  currency
  reason
  status
  evidenceDueBy
  submissionCount
  provider
  providerStatus
  fee
  createdAt
  closedAt
}`) as unknown as TypedDocumentString<DisputeDetailQuery, DisputeDetailQueryVariables>;
export const DisputedPaymentDocument = new TypedDocumentString(`
    query DisputedPayment($r: String!) {
  transaction(reference: $r) {
    reference
    externalReference
    status
    amount
    currency
    card {
      brand
      last4
    }
    createdAt
  }
}
    `) as unknown as TypedDocumentString<DisputedPaymentQuery, DisputedPaymentQueryVariables>;
export const UpdateDisputeEvidenceDocument = new TypedDocumentString(`
    mutation UpdateDisputeEvidence($id: ID!, $input: DisputeEvidenceInput!) {
  updateDisputeEvidence(id: $id, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<UpdateDisputeEvidenceMutation, UpdateDisputeEvidenceMutationVariables>;
export const SubmitDisputeDocument = new TypedDocumentString(`
    mutation SubmitDispute($id: ID!) {
  submitDispute(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<SubmitDisputeMutation, SubmitDisputeMutationVariables>;
export const AcceptDisputeDocument = new TypedDocumentString(`
    mutation AcceptDispute($id: ID!) {
  acceptDispute(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<AcceptDisputeMutation, AcceptDisputeMutationVariables>;
export const DisputesDocument = new TypedDocumentString(`
    query Disputes($status: DisputeStatus, $first: Int, $after: String) {
  disputes(status: $status, first: $first, after: $after) {
    edges {
      node {
        ...DisputeFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment DisputeFields on Dispute {
  id
  paymentReference
  amount
  currency
  reason
  status
  evidenceDueBy
  submissionCount
  provider
  providerStatus
  fee
  createdAt
  closedAt
}`) as unknown as TypedDocumentString<DisputesQuery, DisputesQueryVariables>;
export const OpenDisputeCountDocument = new TypedDocumentString(`
    query OpenDisputeCount {
  openDisputeCount
}
    `) as unknown as TypedDocumentString<OpenDisputeCountQuery, OpenDisputeCountQueryVariables>;
export const InvitationsDocument = new TypedDocumentString(`
    query Invitations {
  invitations {
    id
    email
    role
    status
    createdAt
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<InvitationsQuery, InvitationsQueryVariables>;
export const InviteMemberDocument = new TypedDocumentString(`
    mutation InviteMember($email: String!, $role: Role!) {
  inviteMember(email: $email, role: $role) {
    id
    email
  }
}
    `) as unknown as TypedDocumentString<InviteMemberMutation, InviteMemberMutationVariables>;
export const ResendInvitationDocument = new TypedDocumentString(`
    mutation ResendInvitation($id: ID!) {
  resendInvitation(id: $id) {
    id
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ResendInvitationMutation, ResendInvitationMutationVariables>;
export const RevokeInvitationDocument = new TypedDocumentString(`
    mutation RevokeInvitation($id: ID!) {
  revokeInvitation(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<RevokeInvitationMutation, RevokeInvitationMutationVariables>;
export const UpcomingPayoutDocument = new TypedDocumentString(`
    query UpcomingPayout($currency: String!) {
  upcomingPayout(currency: $currency) {
    currency
    scheduledAt
    expectedAmount
    minimumAmount
    destination
  }
}
    `) as unknown as TypedDocumentString<UpcomingPayoutQuery, UpcomingPayoutQueryVariables>;
export const ActivityDocument = new TypedDocumentString(`
    query Activity($days: Int) {
  activity(days: $days) {
    days {
      day
      currency
      collected
      paidOut
    }
    finalCount
    successfulCount
    successRate
  }
}
    `) as unknown as TypedDocumentString<ActivityQuery, ActivityQueryVariables>;
export const PaymentLinksDocument = new TypedDocumentString(`
    query PaymentLinks {
  paymentLinks(first: 100) {
    edges {
      node {
        id
        name
        slug
        url
        qrSvg
        active
        amount
        minAmount
        maxAmount
        currency
        paymentsCount
        maxPayments
        expiresAt
        createdAt
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PaymentLinksQuery, PaymentLinksQueryVariables>;
export const CreatePaymentLinkDocument = new TypedDocumentString(`
    mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {
  createPaymentLink(input: $input) {
    id
    url
  }
}
    `) as unknown as TypedDocumentString<CreatePaymentLinkMutation, CreatePaymentLinkMutationVariables>;
export const DeactivatePaymentLinkDocument = new TypedDocumentString(`
    mutation DeactivatePaymentLink($id: ID!) {
  deactivatePaymentLink(id: $id) {
    id
    active
  }
}
    `) as unknown as TypedDocumentString<DeactivatePaymentLinkMutation, DeactivatePaymentLinkMutationVariables>;
export const PaymentLinkPaymentsDocument = new TypedDocumentString(`
    query PaymentLinkPayments($link: String!) {
  transactions(first: 50, filter: {paymentLinkId: $link}) {
    edges {
      node {
        reference
        externalReference
        status
        amount
        currency
        createdAt
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PaymentLinkPaymentsQuery, PaymentLinkPaymentsQueryVariables>;
export const PayoutDestinationsDocument = new TypedDocumentString(`
    query PayoutDestinations {
  payoutDestinations {
    id
    currency
    accountType
    countryCode
    institution
    masked
    accountName
    status
    effectiveAt
    createdAt
    createdBy {
      id
      email
    }
    approvedBy {
      email
    }
  }
}
    `) as unknown as TypedDocumentString<PayoutDestinationsQuery, PayoutDestinationsQueryVariables>;
export const AddPayoutDestinationDocument = new TypedDocumentString(`
    mutation AddPayoutDestination($input: AddPayoutDestinationInput!) {
  addPayoutDestination(input: $input) {
    id
    masked
    accountName
    status
    effectiveAt
  }
}
    `) as unknown as TypedDocumentString<AddPayoutDestinationMutation, AddPayoutDestinationMutationVariables>;
export const ApprovePayoutDestinationDocument = new TypedDocumentString(`
    mutation ApprovePayoutDestination($id: ID!) {
  approvePayoutDestination(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<ApprovePayoutDestinationMutation, ApprovePayoutDestinationMutationVariables>;
export const CancelPayoutDestinationDocument = new TypedDocumentString(`
    mutation CancelPayoutDestination($id: ID!) {
  cancelPayoutDestination(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<CancelPayoutDestinationMutation, CancelPayoutDestinationMutationVariables>;
export const PayoutDocument = new TypedDocumentString(`
    query Payout($id: ID!) {
  payout(id: $id) {
    ...PayoutFields
    report {
      currency
      grossCollected
      fees
      refunds
      transfers
      adjustments
      payouts
      carriedIn
      carriedOut
      net
      balanceTransactions
    }
    balanceTransactions {
      ...BalanceTransactionFields
    }
  }
}
    fragment PayoutFields on Payout {
  id
  createdAt
  amount
  fee
  currency
  status
  automatic
  window
  expectedArrivalAt
  completedAt
  failureReason
  traceReference
  transactionReference
  destination {
    accountName
    accountNumberMasked
    networkName
    accountType
    countryCode
  }
}
fragment BalanceTransactionFields on BalanceTransaction {
  id
  type
  currency
  amount
  fee
  net
  balanceAfter
  sourceReference
  createdAt
}`) as unknown as TypedDocumentString<PayoutQuery, PayoutQueryVariables>;
export const PayoutScheduleDocument = new TypedDocumentString(`
    query PayoutSchedule($currency: String!) {
  payoutSchedule(currency: $currency) {
    ...PayoutScheduleFields
  }
}
    fragment PayoutScheduleFields on PayoutSchedule {
  currency
  interval
  weeklyAnchor
  monthlyAnchor
  delayDays
  cutoffTime
  timeZone
  minimumAmount
  nextPayoutAt
  isDefault
}`) as unknown as TypedDocumentString<PayoutScheduleQuery, PayoutScheduleQueryVariables>;
export const UpdatePayoutScheduleDocument = new TypedDocumentString(`
    mutation UpdatePayoutSchedule($input: PayoutScheduleInput!) {
  updatePayoutSchedule(input: $input) {
    ...PayoutScheduleFields
  }
}
    fragment PayoutScheduleFields on PayoutSchedule {
  currency
  interval
  weeklyAnchor
  monthlyAnchor
  delayDays
  cutoffTime
  timeZone
  minimumAmount
  nextPayoutAt
  isDefault
}`) as unknown as TypedDocumentString<UpdatePayoutScheduleMutation, UpdatePayoutScheduleMutationVariables>;
export const PayoutsDocument = new TypedDocumentString(`
    query Payouts($currency: String, $first: Int, $after: String) {
  payouts(currency: $currency, first: $first, after: $after) {
    edges {
      node {
        ...PayoutFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment PayoutFields on Payout {
  id
  createdAt
  amount
  fee
  currency
  status
  automatic
  window
  expectedArrivalAt
  completedAt
  failureReason
  traceReference
  transactionReference
  destination {
    accountName
    accountNumberMasked
    networkName
    accountType
    countryCode
  }
}`) as unknown as TypedDocumentString<PayoutsQuery, PayoutsQueryVariables>;
export const CreatePayoutDocument = new TypedDocumentString(`
    mutation CreatePayout($input: CreatePayoutInput!) {
  createPayout(input: $input) {
    ...PayoutFields
  }
}
    fragment PayoutFields on Payout {
  id
  createdAt
  amount
  fee
  currency
  status
  automatic
  window
  expectedArrivalAt
  completedAt
  failureReason
  traceReference
  transactionReference
  destination {
    accountName
    accountNumberMasked
    networkName
    accountType
    countryCode
  }
}`) as unknown as TypedDocumentString<CreatePayoutMutation, CreatePayoutMutationVariables>;
export const MySessionsDocument = new TypedDocumentString(`
    query MySessions {
  mySessions {
    id
    userAgent
    ip
    createdAt
    lastSeenAt
    current
  }
}
    `) as unknown as TypedDocumentString<MySessionsQuery, MySessionsQueryVariables>;
export const EndSessionDocument = new TypedDocumentString(`
    mutation EndSession($id: ID!) {
  endSession(id: $id)
}
    `) as unknown as TypedDocumentString<EndSessionMutation, EndSessionMutationVariables>;
export const EndOtherSessionsDocument = new TypedDocumentString(`
    mutation EndOtherSessions {
  endOtherSessions
}
    `) as unknown as TypedDocumentString<EndOtherSessionsMutation, EndOtherSessionsMutationVariables>;
export const ChangePasswordDocument = new TypedDocumentString(`
    mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
  changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
}
    `) as unknown as TypedDocumentString<ChangePasswordMutation, ChangePasswordMutationVariables>;
export const EnrollCustomerDocument = new TypedDocumentString(`
    mutation EnrollCustomer($input: EnrollCustomerInput!) {
  enrollCustomer(input: $input) {
    customerUuid
    firstName
    lastName
  }
}
    `) as unknown as TypedDocumentString<EnrollCustomerMutation, EnrollCustomerMutationVariables>;
export const SubmitKycDocument = new TypedDocumentString(`
    mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {
  submitKyc(customerUuid: $u, input: $input) {
    kycStatus
  }
}
    `) as unknown as TypedDocumentString<SubmitKycMutation, SubmitKycMutationVariables>;
export const PaymentChangedDocument = new TypedDocumentString(`
    subscription PaymentChanged($r: String) {
  transactionStatusChanged(reference: $r) {
    ...PaymentFields
  }
}
    fragment PaymentFields on Transaction {
  reference
  externalReference
  status
  failureReason
}`) as unknown as TypedDocumentString<PaymentChangedSubscription, PaymentChangedSubscriptionVariables>;
export const InitiatePaymentDocument = new TypedDocumentString(`
    mutation InitiatePayment($input: InitiatePaymentInput!) {
  initiatePayment(input: $input) {
    ...PaymentFields
    nextAction {
      url
    }
  }
}
    fragment PaymentFields on Transaction {
  reference
  externalReference
  status
  failureReason
}`) as unknown as TypedDocumentString<InitiatePaymentMutation, InitiatePaymentMutationVariables>;
export const SandboxCollectDocument = new TypedDocumentString(`
    mutation SandboxCollect($input: InitiateCollectionInput!) {
  initiateCollection(input: $input) {
    ...SandboxTransactionFields
  }
}
    fragment SandboxTransactionFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  sourceAmount
  sourceCurrency
  destinationAmount
  destinationCurrency
}`) as unknown as TypedDocumentString<SandboxCollectMutation, SandboxCollectMutationVariables>;
export const SandboxTransferDocument = new TypedDocumentString(`
    mutation SandboxTransfer($input: InitiateTransferInput!) {
  initiateTransfer(input: $input) {
    ...SandboxTransactionFields
  }
}
    fragment SandboxTransactionFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
  sourceAmount
  sourceCurrency
  destinationAmount
  destinationCurrency
}`) as unknown as TypedDocumentString<SandboxTransferMutation, SandboxTransferMutationVariables>;
export const SandboxKycChangedDocument = new TypedDocumentString(`
    subscription SandboxKycChanged {
  kycStatusChanged {
    customerUuid
    kycStatus
  }
}
    `) as unknown as TypedDocumentString<SandboxKycChangedSubscription, SandboxKycChangedSubscriptionVariables>;
export const TopUpBalanceDocument = new TypedDocumentString(`
    mutation TopUpBalance($currency: String!, $amount: Decimal!) {
  topUpBalance(currency: $currency, amount: $amount) {
    ...BalanceFields
  }
}
    fragment BalanceFields on Balance {
  currency
  available
  pending
  reserved
  disputed
  owed
}`) as unknown as TypedDocumentString<TopUpBalanceMutation, TopUpBalanceMutationVariables>;
export const SandboxCountriesDocument = new TypedDocumentString(`
    query SandboxCountries {
  countries {
    countryCode
    name
    currency
    dialCode
    exampleMobileNumber
  }
}
    `) as unknown as TypedDocumentString<SandboxCountriesQuery, SandboxCountriesQueryVariables>;
export const SandboxChannelsDocument = new TypedDocumentString(`
    query SandboxChannels($country: String!, $ramp: RampType!) {
  channels(countryCode: $country, rampType: $ramp) {
    channelId
    channelType
    currency
    minAmount
    status
  }
}
    `) as unknown as TypedDocumentString<SandboxChannelsQuery, SandboxChannelsQueryVariables>;
export const SandboxNetworksDocument = new TypedDocumentString(`
    query SandboxNetworks($country: String!, $type: ChannelType!) {
  networks(countryCode: $country, channel: $type) {
    networkId
    name
  }
}
    `) as unknown as TypedDocumentString<SandboxNetworksQuery, SandboxNetworksQueryVariables>;
export const SandboxCustomersDocument = new TypedDocumentString(`
    query SandboxCustomers {
  customers(first: 100) {
    edges {
      node {
        customerUuid
        firstName
        lastName
        kycStatus
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SandboxCustomersQuery, SandboxCustomersQueryVariables>;
export const TeamMembersDocument = new TypedDocumentString(`
    query TeamMembers {
  teamMembers {
    id
    userId
    email
    name
    role
    twoFactorEnabled
    lastSignInAt
    createdAt
  }
}
    `) as unknown as TypedDocumentString<TeamMembersQuery, TeamMembersQueryVariables>;
export const TeamSettingsDocument = new TypedDocumentString(`
    query TeamSettings {
  teamSettings {
    twoFactorRequired
  }
}
    `) as unknown as TypedDocumentString<TeamSettingsQuery, TeamSettingsQueryVariables>;
export const ChangeMemberRoleDocument = new TypedDocumentString(`
    mutation ChangeMemberRole($id: ID!, $role: Role!) {
  changeMemberRole(id: $id, role: $role) {
    id
    role
  }
}
    `) as unknown as TypedDocumentString<ChangeMemberRoleMutation, ChangeMemberRoleMutationVariables>;
export const RemoveMemberDocument = new TypedDocumentString(`
    mutation RemoveMember($id: ID!) {
  removeMember(id: $id)
}
    `) as unknown as TypedDocumentString<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const TransferOwnershipDocument = new TypedDocumentString(`
    mutation TransferOwnership($id: ID!) {
  transferOwnership(id: $id) {
    id
    role
  }
}
    `) as unknown as TypedDocumentString<TransferOwnershipMutation, TransferOwnershipMutationVariables>;
export const SetTwoFactorRequiredDocument = new TypedDocumentString(`
    mutation SetTwoFactorRequired($required: Boolean!) {
  setTwoFactorRequired(required: $required)
}
    `) as unknown as TypedDocumentString<SetTwoFactorRequiredMutation, SetTwoFactorRequiredMutationVariables>;
export const TransactionDetailDocument = new TypedDocumentString(`
    query TransactionDetail($r: String!) {
  transaction(reference: $r) {
    ...TransactionFields
    rate
    fee
    accountNumber
    countryCode
    networkId
    expiresAt
    amountRefunded
    paymentReference
    bankInfo {
      accountName
      accountNumber
      bankName
      bankCode
    }
    card {
      brand
      last4
    }
    paymentMethod
    checkoutSessionId
    history {
      fromStatus
      toStatus
      reason
      occurredAt
    }
  }
}
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
}`) as unknown as TypedDocumentString<TransactionDetailQuery, TransactionDetailQueryVariables>;
export const NetworkNamesDocument = new TypedDocumentString(`
    query NetworkNames($country: String!, $type: ChannelType!) {
  networks(countryCode: $country, channel: $type) {
    networkId
    name
  }
}
    `) as unknown as TypedDocumentString<NetworkNamesQuery, NetworkNamesQueryVariables>;
export const RefundPaymentDocument = new TypedDocumentString(`
    mutation RefundPayment($input: RefundPaymentInput!) {
  refundPayment(input: $input) {
    ...RefundFields
  }
}
    fragment RefundFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
}`) as unknown as TypedDocumentString<RefundPaymentMutation, RefundPaymentMutationVariables>;
export const RefundChangedDocument = new TypedDocumentString(`
    subscription RefundChanged($r: String) {
  transactionStatusChanged(reference: $r) {
    ...RefundFields
  }
}
    fragment RefundFields on Transaction {
  reference
  externalReference
  status
  failureReason
  amount
  currency
}`) as unknown as TypedDocumentString<RefundChangedSubscription, RefundChangedSubscriptionVariables>;
export const TransactionStatusChangedDocument = new TypedDocumentString(`
    subscription TransactionStatusChanged($r: String) {
  transactionStatusChanged(reference: $r) {
    status
  }
}
    `) as unknown as TypedDocumentString<TransactionStatusChangedSubscription, TransactionStatusChangedSubscriptionVariables>;
export const SimulateTransactionDocument = new TypedDocumentString(`
    mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {
  simulateTransaction(reference: $r, outcome: $o) {
    status
  }
}
    `) as unknown as TypedDocumentString<SimulateTransactionMutation, SimulateTransactionMutationVariables>;
export const PaymentDisputesDocument = new TypedDocumentString(`
    query PaymentDisputes($r: String!) {
  disputes(paymentReference: $r, first: 5) {
    edges {
      node {
        id
        status
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PaymentDisputesQuery, PaymentDisputesQueryVariables>;
export const TransactionsDocument = new TypedDocumentString(`
    query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {
  transactions(filter: $filter, search: $search, first: $first, after: $after) {
    edges {
      node {
        ...TransactionFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
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
}`) as unknown as TypedDocumentString<TransactionsQuery, TransactionsQueryVariables>;
export const BeginTwoFactorDocument = new TypedDocumentString(`
    mutation BeginTwoFactor {
  beginTwoFactorEnrolment {
    secret
    otpauthUri
    qrSvg
  }
}
    `) as unknown as TypedDocumentString<BeginTwoFactorMutation, BeginTwoFactorMutationVariables>;
export const ConfirmTwoFactorDocument = new TypedDocumentString(`
    mutation ConfirmTwoFactor($code: String!) {
  confirmTwoFactor(code: $code)
}
    `) as unknown as TypedDocumentString<ConfirmTwoFactorMutation, ConfirmTwoFactorMutationVariables>;
export const DisableTwoFactorDocument = new TypedDocumentString(`
    mutation DisableTwoFactor($password: String!, $code: String!) {
  disableTwoFactor(password: $password, code: $code)
}
    `) as unknown as TypedDocumentString<DisableTwoFactorMutation, DisableTwoFactorMutationVariables>;
export const WebhookSettingsDocument = new TypedDocumentString(`
    query WebhookSettings {
  merchant {
    webhookUrl
    webhookEventTypes
  }
  webhookEventTypes
}
    `) as unknown as TypedDocumentString<WebhookSettingsQuery, WebhookSettingsQueryVariables>;
export const ChooseWebhookEventTypesDocument = new TypedDocumentString(`
    mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {
  setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {
    webhookUrl
    webhookEventTypes
  }
}
    `) as unknown as TypedDocumentString<ChooseWebhookEventTypesMutation, ChooseWebhookEventTypesMutationVariables>;
export const SendWebhookTestEventDocument = new TypedDocumentString(`
    mutation SendWebhookTestEvent {
  sendWebhookTestEvent {
    id
    deliveryStatus
    attempts {
      statusCode
      latencyMs
      success
      error
    }
  }
}
    `) as unknown as TypedDocumentString<SendWebhookTestEventMutation, SendWebhookTestEventMutationVariables>;
export const WebhookSecretOverlapDocument = new TypedDocumentString(`
    query WebhookSecretOverlap {
  merchant {
    webhookSecretOverlapUntil
  }
}
    `) as unknown as TypedDocumentString<WebhookSecretOverlapQuery, WebhookSecretOverlapQueryVariables>;
export const RotateWebhookSecretDocument = new TypedDocumentString(`
    mutation RotateWebhookSecret {
  rotateWebhookSecret {
    webhookSecret
    previousSecretExpiresAt
  }
}
    `) as unknown as TypedDocumentString<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const WebhookEventTypesDocument = new TypedDocumentString(`
    query WebhookEventTypes {
  webhookEventTypes
}
    `) as unknown as TypedDocumentString<WebhookEventTypesQuery, WebhookEventTypesQueryVariables>;
export const WebhookEndpointDocument = new TypedDocumentString(`
    query WebhookEndpoint {
  merchant {
    webhookUrl
  }
}
    `) as unknown as TypedDocumentString<WebhookEndpointQuery, WebhookEndpointQueryVariables>;
export const SetWebhookEndpointDocument = new TypedDocumentString(`
    mutation SetWebhookEndpoint($url: String) {
  setWebhookEndpoint(url: $url) {
    webhookUrl
  }
}
    `) as unknown as TypedDocumentString<SetWebhookEndpointMutation, SetWebhookEndpointMutationVariables>;
export const WebhookEventsDocument = new TypedDocumentString(`
    query WebhookEvents($type: String) {
  webhookEvents(first: 50, type: $type) {
    edges {
      node {
        ...WebhookEventRow
      }
    }
  }
}
    fragment WebhookEventRow on WebhookEvent {
  id
  type
  reference
  customerUuid
  customer {
    firstName
    lastName
  }
  createdAt
  deliveryStatus
  attemptCount
  deliveredAt
  nextAttemptAt
}`) as unknown as TypedDocumentString<WebhookEventsQuery, WebhookEventsQueryVariables>;
export const WebhookEventDetailDocument = new TypedDocumentString(`
    query WebhookEventDetail($id: String!) {
  webhookEvent(id: $id) {
    ...WebhookEventFull
  }
}
    fragment WebhookEventRow on WebhookEvent {
  id
  type
  reference
  customerUuid
  customer {
    firstName
    lastName
  }
  createdAt
  deliveryStatus
  attemptCount
  deliveredAt
  nextAttemptAt
}
fragment WebhookEventFull on WebhookEvent {
  ...WebhookEventRow
  data
  attempts {
    attemptNumber
    attemptedAt
    url
    statusCode
    latencyMs
    success
    error
  }
}`) as unknown as TypedDocumentString<WebhookEventDetailQuery, WebhookEventDetailQueryVariables>;
export const ResendWebhookEventDocument = new TypedDocumentString(`
    mutation ResendWebhookEvent($id: String!) {
  resendWebhookEvent(id: $id) {
    ...WebhookEventFull
  }
}
    fragment WebhookEventRow on WebhookEvent {
  id
  type
  reference
  customerUuid
  customer {
    firstName
    lastName
  }
  createdAt
  deliveryStatus
  attemptCount
  deliveredAt
  nextAttemptAt
}
fragment WebhookEventFull on WebhookEvent {
  ...WebhookEventRow
  data
  attempts {
    attemptNumber
    attemptedAt
    url
    statusCode
    latencyMs
    success
    error
  }
}`) as unknown as TypedDocumentString<ResendWebhookEventMutation, ResendWebhookEventMutationVariables>;
export const DisputeChangedDocument = new TypedDocumentString(`
    subscription DisputeChanged {
  disputeChanged {
    ...DisputeFields
  }
}
    fragment DisputeFields on Dispute {
  id
  paymentReference
  amount
  currency
  reason
  status
  evidenceDueBy
  submissionCount
  provider
  providerStatus
  fee
  createdAt
  closedAt
}`) as unknown as TypedDocumentString<DisputeChangedSubscription, DisputeChangedSubscriptionVariables>;
export const BalancesDocument = new TypedDocumentString(`
    query Balances {
  balances {
    ...BalanceFields
  }
}
    fragment BalanceFields on Balance {
  currency
  available
  pending
  reserved
  disputed
  owed
}`) as unknown as TypedDocumentString<BalancesQuery, BalancesQueryVariables>;
export const BalanceChangedDocument = new TypedDocumentString(`
    subscription BalanceChanged($currency: String) {
  balanceChanged(currency: $currency) {
    ...BalanceFields
  }
}
    fragment BalanceFields on Balance {
  currency
  available
  pending
  reserved
  disputed
  owed
}`) as unknown as TypedDocumentString<BalanceChangedSubscription, BalanceChangedSubscriptionVariables>;
export const TransactionChangedDocument = new TypedDocumentString(`
    subscription TransactionChanged($r: String) {
  transactionStatusChanged(reference: $r) {
    ...TransactionFields
  }
}
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
}`) as unknown as TypedDocumentString<TransactionChangedSubscription, TransactionChangedSubscriptionVariables>;