import { z } from 'zod';
import { AuditLogEntryRecord } from '../../../modules/audit/audit.serializer';
import { TokenGrantRecord } from '../../../modules/auth/oauth.serializer';
import { CustomerRecord } from '../../../modules/customers/customer.serializer';
import { KycSubmissionDetailRecord, KycSubmissionRecord } from '../../../modules/kyc/kyc-review.serializer';
import { KycRecordSchema } from '../../../modules/kyc/kyc.serializer';
import { BalanceRecord, FeeRuleRecord, StatementRecord } from '../../../modules/ledger/ledger.serializer';
import { AdminMerchantRecord, MerchantCredentialsRecord, MerchantRecord } from '../../../modules/merchants/merchant.serializer';
import { QuoteRecord } from '../../../modules/rates/rates.serializer';
import { ChannelRecord, CountryRecord, NetworkRecord } from '../../../modules/reference/reference.serializer';
import {
  CollectionInitiationRecord,
  CollectionRecord,
  PaymentRecord,
  RefundRecord,
  TransactionRecord,
  TransferInitiationRecord,
  TransferRecord,
} from '../../../modules/transactions/transaction.serializer';
import { WebhookEventRecord, WebhookEventSummaryRecord, WebhookSecretRotationRecord } from '../../../modules/webhooks/webhook.serializer';
import { ERROR_HTTP_STATUS } from '../../../shared/errors';
import { record, records } from '../../../shared/records';
import { jsonSchemaOptions, type JsonSchema } from './json-schema';

/**
 * The document's answer components: every record (each defined once, beside its serializer in
 * modules/<area>/<area>.serializer.ts, registered in shared/records.ts) and the envelope's parts.
 * Listed here so that importing this file registers them all (exported so that nothing drops the imports as unused).
 * @public
 */
export const RECORDS = [
  MerchantRecord,
  MerchantCredentialsRecord,
  TokenGrantRecord,
  CountryRecord,
  ChannelRecord,
  NetworkRecord,
  QuoteRecord,
  CustomerRecord,
  KycRecordSchema,
  CollectionInitiationRecord,
  TransferInitiationRecord,
  CollectionRecord,
  TransferRecord,
  PaymentRecord,
  RefundRecord,
  TransactionRecord,
  BalanceRecord,
  StatementRecord,
  FeeRuleRecord,
  WebhookEventSummaryRecord,
  WebhookEventRecord,
  WebhookSecretRotationRecord,
  AdminMerchantRecord,
  KycSubmissionRecord,
  KycSubmissionDetailRecord,
  AuditLogEntryRecord,
] as const;

export const EmptyAnswer = record('Empty', z.object({}), 'An empty object.');
record('CountMeta', z.object({ count: z.int() }));
record('PageMeta', z.object({ count: z.int(), has_more: z.boolean(), next_cursor: z.string().nullable().describe('Pass it as `after` for the next page') }));
/** A shortfall's figure (INSUFFICIENT_FUNDS only): a decimal string with the currency's minor unit. */
const shortfallFigure = (what: string) => z.string().optional().describe(`INSUFFICIENT_FUNDS only: ${what}, a decimal string with the currency’s minor unit`);
record(
  'ErrorDetail',
  z.object({
    field: z.string().describe('The field, in this door’s (snake_case) names, e.g. `card.exp_year`'),
    issue: z.string(),
    currency: z.string().optional().describe('INSUFFICIENT_FUNDS only: the currency of the figures below'),
    available: shortfallFigure('your available balance'),
    needed: shortfallFigure('what the debit needs from it (a transfer’s amount plus its fee; a payout’s or refund’s amount)'),
    missing: shortfallFigure('needed − available (0 if a credit has landed since)'),
  }),
);

/** The error envelope (spec §7, envelope.ts errorBody). */
export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['status', 'code', 'message'],
  properties: {
    status: { const: 'error' },
    code: { type: 'string', enum: Object.keys(ERROR_HTTP_STATUS) },
    message: { type: 'string' },
    details: { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } },
  },
};

/** A record's component name. */
export function componentName(schema: z.ZodType): string {
  const id = records.get(schema)?.id;
  if (!id) throw new Error('An answer names a schema that is not a registered record (shared/records.ts)');
  return id;
}

/**
 * The records as the document's components (each referring to the others by $ref).
 * `strict`: no field beyond those documented (for tests of real answers).
 */
export function responseComponents(opts: { strict?: boolean } = {}): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(records, {
    ...jsonSchemaOptions('output', opts),
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  // Every kind of the union, from the union itself: a kind left out of the mapping would be typed by its
  // component's name (openapi-typescript's `type: "PayoutTransaction"`) instead of its `type` value.
  schemas.Transaction!.discriminator = {
    propertyName: 'type',
    mapping: Object.fromEntries(
      TransactionRecord.options.map((kind) => [(kind.shape.type as z.ZodLiteral<string>).value, `#/components/schemas/${componentName(kind)}`]),
    ),
  };
  return schemas;
}
