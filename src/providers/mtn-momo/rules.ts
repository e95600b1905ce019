import type { Route } from '../connector';
import { walletNumberRule, type ConnectorRules } from '../rules';
import { MTN_TARGET_COUNTRIES } from './mapping';

const COUNTRIES = new Set(Object.values(MTN_TARGET_COUNTRIES));

/** MTN MoMo covers MTN's wallets in the countries of its target environments (the configured one narrows it to one). */
export const mtnMomoRules: ConnectorRules = {
  covers: (route: Route) => route.channelType === 'momo' && route.networkCode === 'MTN' && COUNTRIES.has(route.countryCode ?? ''),
  rules: [walletNumberRule],
};
