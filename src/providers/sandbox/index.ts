import type { CapabilityName } from '../capabilities';
import { SandboxPaymentProvider, type SandboxDependencies } from './client';

/**
 * The in-process sandbox (CONTRACT §6, §7): serves every route in the sandbox only, deciding by its tables
 * (statuses.ts, sandbox-cards.ts), with a virtual account per collection and its card charges kept in the
 * database. It has no variables, and is not in the registry (registry.ts): the composition root adds it
 * in the sandbox.
 */
export const sandbox = {
  name: 'sandbox',
  capabilities: ['inProcess', 'opensVirtualAccounts', 'chargesCards', 'refunds', 'resolvesAccounts'] as const satisfies readonly CapabilityName[],
  create: (deps: SandboxDependencies) => new SandboxPaymentProvider(deps),
};

export type { SandboxDependencies } from './client';
export { sandboxSettlement } from './statuses';
