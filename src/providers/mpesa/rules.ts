import type { Route } from '../connector';
import { walletNumberRule, type ConnectorRule, type ConnectorRules } from '../rules';

/** Daraja moves whole shillings only (STK Push's and B2C's `Amount` is an integer). */
const wholeShillings: ConnectorRule = {
  id: 'mpesa-whole-kes',
  refuses: 'an amount with a fraction of a shilling (e.g. 100.50 KES)',
  field: 'amount',
  issue: (leg) => (/^\d+(\.0+)?$/.test(leg.amount) ? null : 'must be a whole number of KES for M-Pesa'),
};

/** M-Pesa Daraja covers Kenya's M-Pesa wallets, both ways (which products are configured narrows it). */
export const mpesaRules: ConnectorRules = {
  covers: (route: Route) => route.channelType === 'momo' && route.countryCode === 'KE' && route.networkCode === 'MPESA',
  rules: [walletNumberRule, wholeShillings],
  payoutDecimals: () => 0,
};
