/**
 * An in-process event whose handlers run, in order and awaited, before the code that emits it goes
 * on: for what must be done before a change is answered, by a module the emitter does not know
 * (`merchant.created` → the ledger opens the merchant's accounts). Not pub/sub: only this process
 * hears it, and a crash between the change and its handlers is made good by the handler's own
 * start-up sweep (LedgerService.openUnopenedMerchants).
 */
export class DomainEvent<P> {
  private readonly handlers: Array<(payload: P) => Promise<void>> = [];

  constructor(readonly name: string) {}

  /** Subscribes; a module's factory does it once, at start. */
  on(handler: (payload: P) => Promise<void>): void {
    this.handlers.push(handler);
  }

  async emit(payload: P): Promise<void> {
    for (const handler of this.handlers) await handler(payload);
  }
}

/** What a subscriber sees of an event. */
export type Subscribable<P> = Pick<DomainEvent<P>, 'name' | 'on'>;
