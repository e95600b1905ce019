import { AppError } from '../shared/errors';
import type { PaymentProvider } from './payment-provider';

/**
 * Production without a real provider: refuse to move money rather than pretend.
 * (Only the sandbox provider exists so far; a real one implements PaymentProvider.)
 */
export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'none';
  private refuse(): never {
    throw new AppError('SERVER_ERROR', 'No payment provider is configured for production; no money was moved and no card was charged');
  }
  async initiate(): Promise<never> {
    return this.refuse();
  }
  async createVirtualAccount(): Promise<never> {
    return this.refuse();
  }
  async decide() {
    return { outcome: 'pending' as const };
  }
  async chargeCard(): Promise<never> {
    return this.refuse();
  }
  async refund(): Promise<never> {
    return this.refuse();
  }
  async concludeCardCharge() {
    return { outcome: 'failed' as const, providerReference: null, reason: 'processing_error' };
  }
}
