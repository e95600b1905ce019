import type { ConnectorsConfig } from '../config';
import type { Connector } from './connector';
import { FlutterwaveConnector } from './flutterwave/flutterwave.connector';
import { MpesaConnector } from './mpesa/mpesa.connector';
import { MtnMomoConnector } from './mtn-momo/mtn-momo.connector';

/** Every real provider's connector whose variables are set (config.ts refuses a half-configured one). */
export function realConnectors(
  settings: ConnectorsConfig,
  now: () => Date,
  /** Keeps a status query sent (M-Pesa's Transaction Status) with its transaction. */
  recordQuery: (connector: string, transactionId: string, queryId: string) => Promise<void>,
): Connector[] {
  const list: Connector[] = [];
  if (settings.mtnMomo) list.push(new MtnMomoConnector(settings.mtnMomo, settings.timeoutMs));
  if (settings.flutterwave) list.push(new FlutterwaveConnector(settings.flutterwave, settings.timeoutMs));
  if (settings.mpesa) list.push(new MpesaConnector(settings.mpesa, settings.timeoutMs, now, (t, q) => recordQuery('mpesa', t, q)));
  return list;
}
