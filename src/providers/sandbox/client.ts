import type { AccountResolutionRequest, ResolvesAccounts } from '../capabilities';
import type {
  CardCharge,
  CardChargeRequest,
  ChargesCards,
  Connector,
  InboundNotification,
  InitiateRequest,
  InProcess,
  OpensVirtualAccounts,
  ParsedNotification,
  RefundRequest,
  Refunds,
  SettlementDecision,
  VirtualAccountRequest,
} from '../connector';
import { bodyDigest } from '../provider-http';
import { sandboxAccountHolder } from './sandbox-accounts';
import { sandboxAuthenticationPath, type SandboxCardCharges } from './sandbox-card-charges';
import { sandboxCardBehaviour } from './sandbox-cards';
import { providerReference } from './mapping';
import { sandboxSettlement } from './statuses';

/** The bank a sandbox virtual account is opened at: the network asked for, by its reference data name and code. */
interface SandboxBank {
  bankName: string;
  bankCode: string;
}

/**
 * The deterministic sandbox connector: it serves every route in the sandbox (unless PROVIDER_ROUTES
 * sends one to a real provider), in process. Provider references derive from the idempotency key,
 * so a repeated request gets the same answer, as a real provider's idempotency would give. It
 * decides by its table, so it sends no notifications; one sent to its callback address is kept and
 * answered like any other (a status query that finds nothing new).
 */
/** What the sandbox connector is built with (the composition root). */
export interface SandboxDependencies {
  /** The account number held for an idempotency key: the same key always gets the same account. */
  accountNumberFor: (idempotencyKey: string) => Promise<string>;
  /** The bank of a country with this network code (the one asked for); a stand-in when reference data has none. */
  bankFor: (countryCode: string, networkCode: string) => SandboxBank;
  cardCharges: SandboxCardCharges;
  /** The service's public base URL, where the cardholder's browser reaches the 3-D Secure page. */
  publicBaseUrl: () => string;
}

export class SandboxPaymentProvider implements Connector, InProcess, OpensVirtualAccounts, ChargesCards, Refunds, ResolvesAccounts {
  readonly name = 'sandbox';
  readonly acknowledgement = { received: true };
  readonly inProcess = true as const;

  serves(): boolean {
    return true;
  }

  parseNotification(notification: InboundNotification): ParsedNotification {
    return { dedupeKey: bodyDigest(notification.body), providerReference: null, claimed: null };
  }

  async checkCredentials(): Promise<string[]> {
    return ['in process: nothing to check'];
  }

  private readonly accountNumberFor: SandboxDependencies['accountNumberFor'];
  private readonly bankFor: SandboxDependencies['bankFor'];
  private readonly cardCharges: SandboxCardCharges;
  private readonly publicBaseUrl: () => string;

  constructor({ accountNumberFor, bankFor, cardCharges, publicBaseUrl }: SandboxDependencies) {
    this.accountNumberFor = accountNumberFor;
    this.bankFor = bankFor;
    this.cardCharges = cardCharges;
    this.publicBaseUrl = publicBaseUrl;
  }

  async initiate(request: InitiateRequest): Promise<{ providerReference: string }> {
    return { providerReference: providerReference(request.kind === 'collection' ? 'prompt' : 'payout', request.idempotencyKey) };
  }

  async createVirtualAccount(request: VirtualAccountRequest) {
    const bank = this.bankFor(request.countryCode, request.networkCode);
    return {
      accountName: request.accountName,
      accountNumber: await this.accountNumberFor(request.idempotencyKey),
      bankName: bank.bankName,
      bankCode: bank.bankCode,
      providerReference: providerReference('va', request.idempotencyKey),
    };
  }

  /** Every account on every route, by its table (sandbox-accounts.ts). */
  resolvesAccountsOn(): boolean {
    return true;
  }

  async resolveAccount(request: AccountResolutionRequest): Promise<{ accountName: string }> {
    return { accountName: sandboxAccountHolder(request.accountNumber) };
  }

  async refund(request: RefundRequest): Promise<{ providerReference: string }> {
    return { providerReference: providerReference('refund', request.idempotencyKey) };
  }

  async decide(request: Parameters<Connector['decide']>[0]): Promise<SettlementDecision> {
    if (request.kind === 'refund') return sandboxSettlement({ kind: 'refund', refundsFail: await this.cardCharges.refundsFail(request.chargeKey) });
    return sandboxSettlement(request);
  }

  /** Decided by the test card table; the card itself goes no further than this call. */
  async chargeCard(request: CardChargeRequest): Promise<CardCharge> {
    const behaviour = sandboxCardBehaviour(request.card.number);
    const { charge, handle } = await this.cardCharges.record(request.idempotencyKey, {
      provider_reference: providerReference('ch', request.idempotencyKey),
      outcome: behaviour.outcome,
      failure_reason: behaviour.outcome === 'failed' ? behaviour.reason : null,
      refunds_fail: behaviour.outcome === 'successful' && behaviour.refundsFail === true,
      disputed: behaviour.outcome === 'successful' && behaviour.disputed === true,
    });
    if (charge.outcome !== 'requires_action' || !handle) return charge;
    return { ...charge, authenticationUrl: `${this.publicBaseUrl()}${sandboxAuthenticationPath(handle)}` };
  }

  /** A 3-D Secure charge gets a fresh page handle (the first one was lost with the crash), so the cardholder can still authenticate. */
  async concludeCardCharge(idempotencyKey: string): Promise<CardCharge> {
    const { charge, handle } = await this.cardCharges.conclude(idempotencyKey, providerReference('ch', idempotencyKey));
    if (charge.outcome !== 'requires_action' || !handle) return charge;
    return { ...charge, authenticationUrl: `${this.publicBaseUrl()}${sandboxAuthenticationPath(handle)}` };
  }
}
