import { GuardedConnector } from '../../providers/breaker';
import type { Connector } from '../../providers/connector';
import { realConnectors } from '../../providers/registry';
import { CallbackUrls, ConnectorRouter } from '../../providers/routing';
import { sandbox } from '../../providers/sandbox';
import { SandboxCardCharges } from '../../providers/sandbox/sandbox-card-charges';
import { sandboxVirtualAccounts } from '../../providers/sandbox/sandbox-virtual-accounts';
import { deriveKey } from '../../shared/crypto';
import type { PublicAddress } from '../../shared/public-address';
import { defineModule, type ModuleInfra } from '../module';
import type { ReferenceService } from '../reference/reference.service';
import type { TransactionJobQueue } from '../transactions/transaction.jobs';
import { parsePollSchedule } from '../webhooks/retry-schedule';
import { Rails } from './rails';

type RailsInfra = Pick<ModuleInfra, 'config' | 'sql' | 'keys' | 'clock' | 'logger' | 'metrics'> & { jobs: TransactionJobQueue };

/**
 * The rails (docs/providers.md): every configured connector behind its circuit breaker, the
 * routing table, the signed callback addresses and what providers sent (Rails). In the sandbox,
 * the in-process sandbox connector and its card handles (`cardCharges`, which the payments use for
 * the 3-D Secure step; null elsewhere). The reference's channels lookup learns here which channels
 * a connector serves.
 */
export const railsModule = defineModule({
  name: 'rails',
  create: (infra: RailsInfra, { reference, publicAddress }: { reference: ReferenceService; publicAddress: PublicAddress }) => {
    const { config, sql, keys, jobs } = infra;
    const cardCharges = config.env === 'sandbox' ? new SandboxCardCharges(sql) : null;
    const connectors = createConnectors(infra, reference, cardCharges, publicAddress);
    const rails = new Rails({
      router: new ConnectorRouter({ connectors, routes: config.connectors.routes, env: config.env }),
      callbacks: new CallbackUrls({ key: deriveKey(keys.encryptionKey, 'provider-callback'), publicAddress }),
      sql,
      jobs,
      timing: {
        sandboxSettleMs: config.sandboxSettleMs,
        pollScheduleMs: parsePollSchedule(config.connectors.pollSchedule),
      },
    });
    // The channels lookup shows a channel no provider serves here as unavailable.
    reference.useRouting((channel, network) =>
      rails.router.serves({
        channelType: channel.channelType,
        countryCode: channel.countryCode,
        networkCode: network.code,
        direction: channel.rampType === 'deposit' ? 'collection' : 'transfer',
      }),
    );
    return { services: { rails, cardCharges } };
  },
});

/**
 * Every configured connector, each behind its circuit breaker: the sandbox's (sandbox only) and
 * each real provider whose variables are set (config.ts refuses a half-configured one at start).
 */
function createConnectors(
  { config, sql, logger, clock, metrics }: RailsInfra,
  reference: ReferenceService,
  cardCharges: SandboxCardCharges | null,
  publicAddress: PublicAddress,
): Map<string, GuardedConnector> {
  const { connectors: settings } = config;
  const list: Connector[] = realConnectors(settings, { timeoutMs: settings.timeoutMs, now: () => clock.now() }).map((c) => c.connector);
  if (config.env === 'sandbox' && cardCharges) list.unshift(createSandboxConnector(sql, reference, cardCharges, publicAddress));
  return new Map(list.map((c) => [c.name, new GuardedConnector({ connector: c, settings: settings.breaker, observer: metrics?.connectors, logger })]));
}

/** The in-process sandbox: decides by its tables (CONTRACT §6), with a virtual account per collection kept in the database. */
function createSandboxConnector(sql: RailsInfra['sql'], reference: ReferenceService, cardCharges: SandboxCardCharges, publicAddress: PublicAddress): Connector {
  return sandbox.create({
    accountNumberFor: sandboxVirtualAccounts(sql),
    // The virtual account is at the bank the collection's network_id names (checked to be a bank of the country).
    bankFor: (countryCode, networkCode) => {
      const banks = reference.networks(countryCode, 'bank');
      const bank = banks.find((b) => b.code === networkCode) ?? banks[0];
      return { bankName: bank?.name ?? 'Sandbox Bank', bankCode: bank?.code ?? 'SANDBOX' };
    },
    cardCharges,
    publicBaseUrl: () => publicAddress.url,
  });
}
