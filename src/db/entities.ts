import { RefreshToken } from '../modules/auth/refresh-token.entity';
import { TokenFamily } from '../modules/auth/token-family.entity';
import { Customer } from '../modules/customers/customer.entity';
import { KycSubmission } from '../modules/kyc/kyc-submission.entity';
import { Merchant } from '../modules/merchants/merchant.entity';
import { OutboxEvent } from '../modules/outbox/outbox-event.entity';
import { WebhookAttempt, WebhookDelivery } from '../modules/webhooks/webhook-delivery.entity';
import { FxQuote } from '../modules/rates/fx-quote.entity';
import { ChannelRecord, CountryRecord, CurrencyRecord, NetworkRecord } from '../modules/reference/reference.entities';

export const entities = [
  Merchant,
  TokenFamily,
  RefreshToken,
  Customer,
  KycSubmission,
  OutboxEvent,
  WebhookDelivery,
  WebhookAttempt,
  CurrencyRecord,
  CountryRecord,
  ChannelRecord,
  NetworkRecord,
  FxQuote,
];
