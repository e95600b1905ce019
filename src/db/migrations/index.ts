import type { MigrationObject } from '@mikro-orm/core';
import type { PaymentsEnv } from '../../config';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation';
import { Migration20261122010000_reference } from './Migration20261122010000_reference';
import { Migration20261122020000_customers } from './Migration20261122020000_customers';
import { Migration20261122030000_transactions } from './Migration20261122030000_transactions';
import { Migration20261122040000_webhooks } from './Migration20261122040000_webhooks';
import { Migration20261122050000_engine } from './Migration20261122050000_engine';
import { Migration20261122060000_payments } from './Migration20261122060000_payments';
import { Migration20261122070100_kyc_review } from './Migration20261122070100_kyc_review';
import { Migration20261122071000_merchant_disable } from './Migration20261122071000_merchant_disable';
import { Migration20261122072000_webhook_secrets } from './Migration20261122072000_webhook_secrets';
import { Migration20261122073000_idempotency } from './Migration20261122073000_idempotency';
import { Migration20261125010000_webhook_attempt_started } from './Migration20261125010000_webhook_attempt_started';
import { Migration20261126000000_ledger } from './Migration20261126000000_ledger';
import { Migration20261127000000_rails } from './Migration20261127000000_rails';
import { Migration20261128000000_sandbox_refunds } from './Migration20261128000000_sandbox_refunds';
import { Migration20261129001000_initiation_on_row } from './Migration20261129001000_initiation_on_row';
import { Migration20261129010000_cheaper_transaction_writes } from './Migration20261129010000_cheaper_transaction_writes';
import { Migration20261130000000_time_ordered_keys } from './Migration20261130000000_time_ordered_keys';
import { Migration20261130001000_ledger_checkpoints } from './Migration20261130001000_ledger_checkpoints';
import { Migration20261201000000_webhook_event_types } from './Migration20261201000000_webhook_event_types';
import { Migration20261201020000_transaction_search } from './Migration20261201020000_transaction_search';
import { Migration20261202001000_webhook_endpoint_capacity } from './Migration20261202001000_webhook_endpoint_capacity';
import { Migration20261202034000_notification_cap } from './Migration20261202034000_notification_cap';
import { Migration20261203000000_team_accounts } from './Migration20261203000000_team_accounts';
import { Migration20261203011000_merchant_country } from './Migration20261203011000_merchant_country';
import { Migration20261204000000_domestic_methods } from './Migration20261204000000_domestic_methods';
import { Migration20261204010000_checkout } from './Migration20261204010000_checkout';
import { Migration20261204020000_checkout_branding } from './Migration20261204020000_checkout_branding';
import { Migration20261205000000_card_otp_tries } from './Migration20261205000000_card_otp_tries';
import { Migration20261206000000_name_check } from './Migration20261206000000_name_check';
import { Migration20261207000000_payout_destinations } from './Migration20261207000000_payout_destinations';
import { Migration20261207010000_payout_schedules } from './Migration20261207010000_payout_schedules';
import { Migration20261207020000_payouts } from './Migration20261207020000_payouts';
import { Migration20261207030000_reconciliation } from './Migration20261207030000_reconciliation';
import { Migration20261208000000_disputes } from './Migration20261208000000_disputes';
import { Migration20261208010000_dispute_files } from './Migration20261208010000_dispute_files';
import { Migration20261202040000_available_at } from './Migration20261202040000_available_at';
import { deploymentStampMigration } from './Migration20261202010000_deployment_stamp';
import { Migration20261209000000_hot_table_vacuum } from './Migration20261209000000_hot_table_vacuum';
import { Migration20261210001000_webhook_delivery_queue } from './Migration20261210001000_webhook_delivery_queue';
import { Migration20261210002000_settlement_due } from './Migration20261210002000_settlement_due';
import { Migration20261211000000_checkout_logo } from './Migration20261211000000_checkout_logo';
import { Migration20261202020000_single_use_quotes } from './Migration20261202020000_single_use_quotes';
import { Migration20261202030000_idempotency_holder } from './Migration20261202030000_idempotency_holder';

/**
 * Every migration, in order (a timestamp must not be Luhn-valid: the card-data scan would flag its name in logs). Listed explicitly so the same list runs from TypeScript (tests) and compiled JS.
 * `environment`: the migrating process's PAYMENTS_ENV, which the deployment stamp records (issue 34).
 */
export const migrationsFor = (environment: PaymentsEnv): MigrationObject[] => [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_reference', class: Migration20261122010000_reference },
  { name: 'Migration20261122020000_customers', class: Migration20261122020000_customers },
  { name: 'Migration20261122030000_transactions', class: Migration20261122030000_transactions },
  { name: 'Migration20261122040000_webhooks', class: Migration20261122040000_webhooks },
  { name: 'Migration20261122050000_engine', class: Migration20261122050000_engine },
  { name: 'Migration20261122060000_payments', class: Migration20261122060000_payments },
  { name: 'Migration20261122070100_kyc_review', class: Migration20261122070100_kyc_review },
  { name: 'Migration20261122071000_merchant_disable', class: Migration20261122071000_merchant_disable },
  { name: 'Migration20261122072000_webhook_secrets', class: Migration20261122072000_webhook_secrets },
  { name: 'Migration20261122073000_idempotency', class: Migration20261122073000_idempotency },
  { name: 'Migration20261125010000_webhook_attempt_started', class: Migration20261125010000_webhook_attempt_started },
  { name: 'Migration20261126000000_ledger', class: Migration20261126000000_ledger },
  { name: 'Migration20261127000000_rails', class: Migration20261127000000_rails },
  { name: 'Migration20261128000000_sandbox_refunds', class: Migration20261128000000_sandbox_refunds },
  { name: 'Migration20261129001000_initiation_on_row', class: Migration20261129001000_initiation_on_row },
  { name: 'Migration20261129010000_cheaper_transaction_writes', class: Migration20261129010000_cheaper_transaction_writes },
  { name: 'Migration20261130000000_time_ordered_keys', class: Migration20261130000000_time_ordered_keys },
  { name: 'Migration20261130001000_ledger_checkpoints', class: Migration20261130001000_ledger_checkpoints },
  { name: 'Migration20261201000000_webhook_event_types', class: Migration20261201000000_webhook_event_types },
  { name: 'Migration20261201020000_transaction_search', class: Migration20261201020000_transaction_search },
  { name: 'Migration20261202001000_webhook_endpoint_capacity', class: Migration20261202001000_webhook_endpoint_capacity },
  { name: 'Migration20261202010000_deployment_stamp', class: deploymentStampMigration(environment) },
  { name: 'Migration20261202020000_single_use_quotes', class: Migration20261202020000_single_use_quotes },
  { name: 'Migration20261202030000_idempotency_holder', class: Migration20261202030000_idempotency_holder },
  { name: 'Migration20261202034000_notification_cap', class: Migration20261202034000_notification_cap },
  { name: 'Migration20261202040000_available_at', class: Migration20261202040000_available_at },
  { name: 'Migration20261203000000_team_accounts', class: Migration20261203000000_team_accounts },
  { name: 'Migration20261203011000_merchant_country', class: Migration20261203011000_merchant_country },
  { name: 'Migration20261204000000_domestic_methods', class: Migration20261204000000_domestic_methods },
  { name: 'Migration20261204010000_checkout', class: Migration20261204010000_checkout },
  { name: 'Migration20261204020000_checkout_branding', class: Migration20261204020000_checkout_branding },
  { name: 'Migration20261205000000_card_otp_tries', class: Migration20261205000000_card_otp_tries },
  { name: 'Migration20261206000000_name_check', class: Migration20261206000000_name_check },
  { name: 'Migration20261207000000_payout_destinations', class: Migration20261207000000_payout_destinations },
  { name: 'Migration20261207010000_payout_schedules', class: Migration20261207010000_payout_schedules },
  { name: 'Migration20261207020000_payouts', class: Migration20261207020000_payouts },
  { name: 'Migration20261207030000_reconciliation', class: Migration20261207030000_reconciliation },
  { name: 'Migration20261208000000_disputes', class: Migration20261208000000_disputes },
  { name: 'Migration20261208010000_dispute_files', class: Migration20261208010000_dispute_files },
  { name: 'Migration20261209000000_hot_table_vacuum', class: Migration20261209000000_hot_table_vacuum },
  { name: 'Migration20261210001000_webhook_delivery_queue', class: Migration20261210001000_webhook_delivery_queue },
  { name: 'Migration20261210002000_settlement_due', class: Migration20261210002000_settlement_due },
  { name: 'Migration20261211000000_checkout_logo', class: Migration20261211000000_checkout_logo },
];
