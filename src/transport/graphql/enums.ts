import { registerEnumType } from 'type-graphql';
import { PAYMENTS_ENVS } from '../../config';
import { ROLES } from '../../modules/access/permissions';
import { INVITATION_STATUSES } from '../../modules/team/team.rules';
import { PAYOUT_INTERVALS, WEEKDAYS } from '../../modules/payouts/schedule/schedule.rules';
import { ID_TYPES, localIdTypeSummaries } from '../../modules/kyc/id-documents';
import { KYC_STATUSES } from '../../modules/kyc/kyc.state';
import { NEXT_ACTION_TYPES, PAYMENT_METHODS } from '../../modules/transactions/kinds/payment/payment.service';
import { CHANNEL_STATUSES, CHANNEL_TYPES, RAMP_TYPES } from '../../modules/reference/reference.types';
import { SIMULATION_OUTCOMES } from '../../modules/transactions/lifecycle.service';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../../modules/transactions/transaction.state';
import { DELIVERY_STATUSES } from '../../modules/webhooks/webhook-delivery.entity';

/**
 * Every GraphQL enum, built from the domain's own list of values, so a value added
 * there (a status, a kind) reaches the schema with nothing else to change. GraphQL
 * names a value in upper case (`REQUIRES_ACTION`); resolvers and services see the
 * domain's word (`requires_action`), so inputs pass through and outputs need no mapping.
 */
export function domainEnum<const V extends string>(
  values: readonly V[],
  name: string,
  description?: string,
  valueDescriptions: Partial<Record<V, string>> = {},
): { [K in V as Uppercase<K>]: K } {
  const enumObject = Object.fromEntries(values.map((value) => [value.toUpperCase(), value])) as { [K in V as Uppercase<K>]: K };
  const described = Object.entries<string | undefined>(valueDescriptions).map(([value, text]) => [value.toUpperCase(), { description: text }]);
  registerEnumType(enumObject, {
    name,
    ...(description ? { description } : {}),
    ...(described.length > 0 ? { valuesConfig: Object.fromEntries(described) } : {}),
  });
  return enumObject;
}

export const TransactionTypeEnum = domainEnum(TRANSACTION_KINDS, 'TransactionType', 'What kind of transaction it is.');

export const TransactionStatusEnum = domainEnum(
  TRANSACTION_STATUSES,
  'TransactionStatus',
  'INITIATING (recorded, the provider not yet answered; usually milliseconds) → PROCESSING | FAILED; PROCESSING → SUCCESSFUL | FAILED | EXPIRED; a final status never changes. Only a collection can expire. A card payment goes from INITIATING to SUCCESSFUL or FAILED at once, or to REQUIRES_ACTION (3-D Secure, see nextAction) and then SUCCESSFUL or FAILED (authentication_failed, or authentication_expired after the deadline).',
);

export const SimulationOutcomeEnum = domainEnum(SIMULATION_OUTCOMES, 'SimulationOutcome', 'How a sandbox simulation decides a transaction.');

export const PaymentMethodEnum = domainEnum(PAYMENT_METHODS, 'PaymentMethod', 'How a domestic payment is paid.');

export const NextActionTypeEnum = domainEnum(NEXT_ACTION_TYPES, 'NextActionType', 'What the customer must do before a payment is decided.');

export const KycStatusEnum = domainEnum(KYC_STATUSES, 'KycStatus');

export const IdTypeEnum = domainEnum(
  ID_TYPES,
  'IdType',
  'The identity document. PASSPORT, NATIONAL_ID and DRIVERS_LICENSE: any country’s, the number as written. The others are local documents: each only with its own idCountry and in its format (a wrong one is INVALID_REQUEST naming idCountry or idNumber); the number is kept in its one form.',
  Object.fromEntries(localIdTypeSummaries().map(({ idType, summary }) => [idType, summary])),
);

export const RampTypeEnum = domainEnum(RAMP_TYPES, 'RampType', 'Direction of a channel: DEPOSIT (collection) or WITHDRAWAL (transfer).');

export const ChannelTypeEnum = domainEnum(CHANNEL_TYPES, 'ChannelType', 'Bank transfer or mobile money.');

export const ChannelStatusEnum = domainEnum(CHANNEL_STATUSES, 'ChannelStatus', 'Whether a channel takes new transactions.');

export const WebhookDeliveryStatusEnum = domainEnum(
  DELIVERY_STATUSES,
  'WebhookDeliveryStatus',
  'PENDING (being delivered or waiting for a retry) → DELIVERED (a 2xx answer) | FAILED (the retry schedule is spent). A resend makes it PENDING again.',
);

export const EnvironmentEnum = domainEnum(PAYMENTS_ENVS, 'Environment', 'SANDBOX (test data; simulations and test cards) or PRODUCTION (live traffic).');

export const RoleEnum = domainEnum(
  ROLES,
  'Role',
  'A member’s role at a merchant (docs/access.md): OWNER (one; ownership is transferred) > ADMIN > DEVELOPER, FINANCE, SUPPORT (peers) > VIEWER. A member grants only roles at or below their own.',
);

export const InvitationStatusEnum = domainEnum(
  INVITATION_STATUSES,
  'InvitationStatus',
  'PENDING (its link works) → ACCEPTED | REVOKED | EXPIRED (7 days after it was sent or last resent; a resend makes it PENDING again).',
);

export const PrincipalKindEnum = domainEnum(
  ['api_key', 'user'] as const,
  'PrincipalKind',
  'Who holds the access token: an API key, or a person (a dashboard session).',
);

export const PayoutIntervalEnum = domainEnum(
  PAYOUT_INTERVALS,
  'PayoutInterval',
  'How often a balance is paid out: DAILY, WEEKLY (on weeklyAnchor), MONTHLY (on monthlyAnchor) or MANUAL.',
);

export const WeekdayEnum = domainEnum(WEEKDAYS, 'Weekday');
