/**
 * Where browsers reach this service (the links it hands out, such as the
 * sandbox 3-D Secure page): PUBLIC_BASE_URL, or else the address it listens on,
 * learned at start. A service listening on every interface is reached at
 * 127.0.0.1; behind a proxy or in a container, set PUBLIC_BASE_URL.
 */
export class PublicAddress {
  private base: string | undefined;

  constructor(private readonly configured: string | undefined) {
    this.base = configured;
  }

  /** Called once listening; a configured address wins. */
  learn(listenUrl: string): void {
    if (this.configured) return;
    this.base = listenUrl.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://127.0.0.1:');
  }

  get url(): string {
    if (!this.base) throw new Error('The public address is not known before the service listens');
    return this.base;
  }

  /** The origin (scheme, host, port) a browser reports for pages of this service. */
  get origin(): string {
    return new URL(this.url).origin;
  }
}
