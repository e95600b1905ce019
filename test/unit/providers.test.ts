import { CAPABILITIES, type CapabilityName } from '../../src/providers/capabilities';
import { PROVIDERS } from '../../src/providers/registry';
import { sandbox } from '../../src/providers/sandbox';
import type { SandboxCardCharges } from '../../src/providers/sandbox/sandbox-card-charges';

/** Every provider's declared capabilities are exactly what its connector offers (docs/providers.md, "Adding a connector"). */

const ENV: Record<string, string> = {
  MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana',
  MTN_MOMO_COLLECTION_PRIMARY_KEY: 'k',
  MTN_MOMO_COLLECTION_USER_ID: 'u',
  MTN_MOMO_COLLECTION_API_KEY: 'a',
  MPESA_CONSUMER_KEY: 'k',
  MPESA_CONSUMER_SECRET: 's',
  MPESA_SHORTCODE: '174379',
  MPESA_PASSKEY: 'p',
  MPESA_B2C_SHORTCODE: '600000',
  MPESA_B2C_INITIATOR_NAME: 'i',
  MPESA_B2C_SECURITY_CREDENTIAL: 'c',
  FLUTTERWAVE_SECRET_KEY: 'FLWSECK-live',
  FLUTTERWAVE_ENCRYPTION_KEY: '0123456789abcdef01234567',
  FLUTTERWAVE_WEBHOOK_HASH: 'h',
};

const offered = (connector: Parameters<(typeof CAPABILITIES)[CapabilityName]>[0]) =>
  (Object.keys(CAPABILITIES) as CapabilityName[]).filter((name) => CAPABILITIES[name](connector)).sort();

describe('provider declarations', () => {
  it.each(PROVIDERS.map((p) => [p.name, p] as const))('%s: its connector offers exactly the capabilities its index.ts declares', (name, provider) => {
    const settings = provider.configure(ENV, 'production');
    expect(settings).not.toBeNull();
    const connector = (provider.create as (s: unknown, d: { timeoutMs: number; now: () => Date }) => ReturnType<typeof provider.create>)(settings, {
      timeoutMs: 1000,
      now: () => new Date(),
    });
    expect(connector.name).toBe(name);
    expect(offered(connector)).toEqual([...provider.capabilities].sort());
  });

  it('the sandbox too', () => {
    const connector = sandbox.create({
      accountNumberFor: async () => '0000000001',
      bankFor: () => ({ bankName: 'Sandbox Bank', bankCode: 'SANDBOX' }),
      cardCharges: {} as SandboxCardCharges,
      publicBaseUrl: () => 'http://127.0.0.1',
    });
    expect(connector.name).toBe(sandbox.name);
    expect(offered(connector)).toEqual([...sandbox.capabilities].sort());
  });

  it('names and keys are unique, and every variable is declared once', () => {
    expect(new Set(PROVIDERS.map((p) => p.name)).size).toBe(PROVIDERS.length);
    expect(new Set(PROVIDERS.map((p) => p.key)).size).toBe(PROVIDERS.length);
    const variables = PROVIDERS.flatMap((p) => Object.keys(p.env.shape));
    expect(new Set(variables).size).toBe(variables.length);
  });
});
