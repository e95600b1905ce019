import type { PaymentsEnv } from '../config';
import { hmac, safeEqual } from '../shared/crypto';
import type { PublicAddress } from '../shared/public-address';
import type { GuardedConnector } from './breaker';
import { providerUnavailable, routeUnavailable, type Route, type RouteLeg } from './connector';
import table from './data/routes.json';
import { PROVIDERS } from './registry';
import { applyRules, type ConnectorRules } from './rules';

/** The in-process sandbox connector's name. */
export const SANDBOX_CONNECTOR = 'sandbox';

/** One rule: a route pattern (`*` for any part) and its connectors in order of preference. */
export interface RoutingRule {
  country: string;
  channel: string;
  network: string;
  direction: string;
  connectors: string[];
  /** Where it comes from, for errors: `PROVIDER_ROUTES` or the reference table. */
  source: string;
}

const RULE = /^([A-Z]{2}|\*)\/(bank|momo|card|\*)\/([A-Za-z0-9_]+|\*)\/(collection|transfer|\*)$/;

/** `GH/momo/MTN/collection=mtn_momo,sandbox;KE/momo/MPESA/*=mpesa` → rules; a malformed rule is refused at start, by its text. */
export function parseRoutingRules(text: string, source: string): RoutingRule[] {
  return text
    .split(';')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((rule) => {
      const [pattern, list] = rule.split('=');
      const match = RULE.exec(pattern?.trim() ?? '');
      const connectors = (list ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (!match || connectors.length === 0) {
        throw new Error(`${source} rule "${rule}" must be country/channel/network/direction=connector[,connector] (* for any part)`);
      }
      return { country: match[1]!, channel: match[2]!, network: match[3]!, direction: match[4]!, connectors, source };
    });
}

/**
 * PROVIDER_ROUTES' rules, each connector they name checked: configured here (`configured`), and not the sandbox's
 * in production. Throws at the first problem (startup-checks.ts reports it with the others before the service starts).
 */
export function deploymentRules(text: string, configured: (name: string) => boolean, env: PaymentsEnv): RoutingRule[] {
  const own = parseRoutingRules(text, 'PROVIDER_ROUTES');
  for (const rule of own) {
    for (const name of rule.connectors) {
      if (name === SANDBOX_CONNECTOR && env !== 'sandbox') throw new Error(`PROVIDER_ROUTES names ${name}, which does not move money in production`);
      if (!configured(name)) throw new Error(`PROVIDER_ROUTES names ${name}, which is not configured (see docs/providers.md for its variables)`);
    }
  }
  return own;
}

const REFERENCE_RULES: RoutingRule[] = table.rules.flatMap((r) =>
  parseRoutingRules(`${r.route}=${r.connectors.join(',')}`, 'the reference routing table (src/providers/data/routes.json)'),
);

/** Each real provider's static side (its rules.ts), by connector name: which routes it covers and its rules there. */
const PRODUCTION_RULES: ReadonlyMap<string, ConnectorRules> = new Map(PROVIDERS.map((p) => [p.name, p.rules]));

/** The connector a route's production rules lead to, with its rules; null when no real provider covers the route. */
export interface ProductionConnector {
  name: string;
  rules: ConnectorRules;
}

/**
 * Which connector would serve the route in production, as if every provider were configured: the first of the
 * route's connectors, PROVIDER_ROUTES rules (`own`) before the reference table, whose reference data covers it
 * (credentials aside). Null: none covers it, so production answers ROUTE_UNAVAILABLE. Config-free, so the
 * sandbox can apply that connector's rules (docs/contract.md §12, "Sandbox parity").
 */
export function productionConnector(route: Route, own: readonly RoutingRule[]): ProductionConnector | null {
  for (const rule of [...own, ...REFERENCE_RULES]) {
    if (!matches(rule, route)) continue;
    for (const name of rule.connectors) {
      const rules = PRODUCTION_RULES.get(name);
      if (rules?.covers(route)) return { name, rules };
    }
  }
  return null;
}

const matches = (rule: RoutingRule, route: Route) =>
  (rule.country === '*' || rule.country === route.countryCode) &&
  (rule.channel === '*' || rule.channel === route.channelType) &&
  (rule.network === '*' || rule.network === route.networkCode) &&
  (rule.direction === '*' || rule.direction === route.direction);

/**
 * The routing table: which connector takes a new transaction on a route. Rules from
 * PROVIDER_ROUTES come first, then (production) the reference table; in the sandbox, a route no
 * PROVIDER_ROUTES rule names is served by the sandbox connector, and the reference table is not
 * used (an integrator routes a route to MTN's own sandbox by naming it); the sandbox connector then applies the
 * rules of the connector that would serve the route in production (`productionConnector`). A connector counts only
 * when it is configured and serves the route. Each route's list is worked out once and kept.
 *
 * A new transaction takes the first connector whose breaker is not open (failover); a started
 * one keeps its connector for life (`connector(name)`).
 */
export class ConnectorRouter {
  private readonly rules: RoutingRule[];
  /** PROVIDER_ROUTES's rules alone. */
  private readonly own: RoutingRule[];
  private readonly byRoute = new Map<string, GuardedConnector[]>();
  private readonly parityByRoute = new Map<string, ProductionConnector | null>();

  private readonly connectors: Map<string, GuardedConnector>;
  private readonly env: PaymentsEnv;

  /** `routes`: PROVIDER_ROUTES, the deployment's own rules, before the reference table. */
  constructor({ connectors, routes: configured, env }: { connectors: Map<string, GuardedConnector>; routes: string; env: PaymentsEnv }) {
    this.connectors = connectors;
    this.env = env;
    const own = deploymentRules(configured, (name) => connectors.has(name), env);
    this.own = own;
    this.rules = env === 'sandbox' ? own : [...own, ...REFERENCE_RULES];
  }

  /** The connector that would serve the route in production (see `productionConnector`), worked out once per route. */
  private production(route: Route): ProductionConnector | null {
    const key = routeKey(route);
    if (!this.parityByRoute.has(key)) this.parityByRoute.set(key, productionConnector(route, this.own));
    return this.parityByRoute.get(key)!;
  }

  /**
   * A connector's rules on a new transaction. The sandbox connector applies those of the connector that would serve
   * the route in production (same code, field and message); on a route no real provider covers it has none.
   */
  private check(connector: GuardedConnector, leg: RouteLeg): void {
    if (connector.name !== SANDBOX_CONNECTOR) {
      connector.check(leg);
      return;
    }
    const production = this.production(leg.route);
    if (production) applyRules(production.rules.rules, leg);
  }

  /** The fewest decimals any connector of the route pays out in (the sandbox: its production connector's); undefined: the currency's. */
  payoutDecimals(route: Route): number | undefined {
    const decimals = this.candidates(route).flatMap(
      (c) => (c.name === SANDBOX_CONNECTOR ? this.production(route)?.rules.payoutDecimals?.(route) : c.payoutDecimals(route)) ?? [],
    );
    return decimals.length > 0 ? Math.min(...decimals) : undefined;
  }

  /** The route's connectors in order of preference (empty: nobody serves it here). */
  candidates(route: Route): GuardedConnector[] {
    const key = routeKey(route);
    let list = this.byRoute.get(key);
    if (!list) {
      list = this.ruled(route).filter((c) => c.serves(route));
      this.byRoute.set(key, list);
    }
    return list;
  }

  /** The route's configured connectors by its rules, in order of preference, whatever they serve. */
  private ruled(route: Route): GuardedConnector[] {
    const matching = this.rules.filter((r) => matches(r, route));
    const names = matching.flatMap((r) => r.connectors);
    if (this.env === 'sandbox' && !matching.some((r) => r.source === 'PROVIDER_ROUTES')) names.push(SANDBOX_CONNECTOR);
    return [...new Set(names)].map((n) => this.connectors.get(n)).filter((c): c is GuardedConnector => c !== undefined);
  }

  /**
   * The connectors of the route's rules that name account holders on it, in order of preference (empty: none here;
   * a transfer's name check is then skipped). A bank listed by code only routes as `country/bank/<code>/transfer`.
   */
  resolvers(route: Route, bankCode: string | null): GuardedConnector[] {
    return this.ruled(route).filter((c) => c.resolvesAccountsOn(route, bankCode));
  }

  /** Whether anything serves the route here (the channels lookup's `status`). */
  serves(route: Route): boolean {
    return this.candidates(route).length > 0;
  }

  /**
   * The connector for a new transaction: the first of the route's whose breaker is not open. Its
   * rule on the amount is checked here, before anything is written. ROUTE_UNAVAILABLE when nobody
   * serves the route; PROVIDER_UNAVAILABLE when every one of them is failing right now.
   */
  pick(leg: RouteLeg): GuardedConnector {
    const { route } = leg;
    const candidates = this.candidates(route);
    if (candidates.length === 0) throw routeUnavailable(route);
    // A closed breaker first; a half-open one (its trial call may be under way) only when nothing else is left.
    const connector = candidates.find((c) => c.state === 'closed') ?? candidates.find((c) => !c.isOpen);
    if (!connector) throw providerUnavailable(route);
    this.check(connector, leg);
    return connector;
  }

  /** A started transaction's connector. Gone from the configuration: its calls fail (unknown) until it is back. */
  connector(name: string): GuardedConnector {
    const connector = this.connectors.get(name);
    if (!connector) throw new Error(`The provider ${name} of this transaction is not configured any more; its calls wait until it is`);
    return connector;
  }

  /** Configured connectors (name → connector), for health, metrics and provider:check. */
  all(): GuardedConnector[] {
    return [...this.connectors.values()];
  }

  has(name: string): boolean {
    return this.connectors.has(name);
  }
}

const routeKey = (route: Route) => `${route.countryCode}/${route.channelType}/${route.networkCode}/${route.direction}`;

/**
 * The address a provider calls back for one transaction: `/v1/providers/{connector}/callback/{token}`.
 * The token is the transaction's id and a MAC over it and the connector's name: unguessable, and
 * checked without a read. Nothing in a callback is trusted by itself (provider-signals.service.ts).
 */
export class CallbackUrls {
  private readonly key: Buffer;
  private readonly publicAddress: PublicAddress;

  /** `key`: the MAC key, derived from the encryption key for this use only. */
  constructor({ key, publicAddress }: { key: Buffer; publicAddress: PublicAddress }) {
    this.key = key;
    this.publicAddress = publicAddress;
  }

  /** `purpose`: a provider's callback, or a cardholder's return; neither token opens the other's route. */
  private mac(connector: string, transactionId: string, purpose: 'callback' | 'return' = 'callback'): string {
    return (
      purpose === 'callback' ? hmac(this.key, 'provider-callback', connector, transactionId) : hmac(this.key, 'provider-return', connector, transactionId)
    ).slice(0, 32);
  }

  url(connector: string, transactionId: string): string {
    return `${this.publicAddress.url}/v1/providers/${connector}/callback/${transactionId}.${this.mac(connector, transactionId)}`;
  }

  /** Where a provider's authentication page (3-D Secure) sends the cardholder back: the same token, the return path. */
  returnUrl(connector: string, transactionId: string): string {
    return `${this.publicAddress.url}/v1/providers/${connector}/return/${transactionId}.${this.mac(connector, transactionId, 'return')}`;
  }

  /** The host of the public address (a placeholder payer email when a card payment names no customer). */
  get host(): string {
    return new URL(this.publicAddress.url).hostname;
  }

  /** The transaction a token names, when its MAC is right; else null. */
  transactionOf(connector: string, token: string, purpose: 'callback' | 'return' = 'callback'): string | null {
    const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{32})$/.exec(token);
    if (!match) return null;
    return safeEqual(match[2]!, this.mac(connector, match[1]!, purpose)) ? match[1]! : null;
  }
}
