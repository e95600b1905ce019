import { Decimal } from '../../shared/money';
import type { Route, RouteLeg } from '../connector';
import type { ConnectorRule, ConnectorRules } from '../rules';
import { DATA, PRODUCT_NAMES, productOf } from './mapping';

/** The product a new transaction uses; a card refund is held to no rule (it gives back what was charged). */
function productOfLeg(leg: RouteLeg) {
  const product = productOf(leg.route);
  return product === 'card' && leg.route.direction === 'transfer' ? null : product;
}

const cardCurrency: ConnectorRule = {
  id: 'flutterwave-card-currency',
  refuses: 'a card payment in a currency Flutterwave does not charge in (flutterwave.data.json `card.currencies`)',
  field: 'currency',
  issue: (leg) =>
    productOfLeg(leg) === 'card' && !DATA.card.currencies.includes(leg.currency)
      ? `is not one our card processor charges in; it takes ${DATA.card.currencies.join(', ')}`
      : null,
};

const limits: ConnectorRule = {
  id: 'flutterwave-limits',
  refuses: 'an amount below Flutterwave’s least or above its most per transaction for the product and currency (flutterwave.data.json `limits`)',
  field: 'amount',
  issue: (leg) => {
    const product = productOfLeg(leg);
    const limit = product ? DATA.limits[product][leg.currency] : undefined;
    if (!product || !limit) return null;
    const amount = new Decimal(leg.amount);
    return amount.lt(limit.min) || amount.gt(limit.max)
      ? `must be between ${limit.min} and ${limit.max} ${leg.currency} for ${PRODUCT_NAMES[product]} through our provider on this route`
      : null;
  },
};

/** Flutterwave covers the countries, networks and banks of flutterwave.data.json, and card payments and their refunds. */
export const flutterwaveRules: ConnectorRules = {
  covers: (route: Route) => productOf(route) !== null,
  rules: [cardCurrency, limits],
};
