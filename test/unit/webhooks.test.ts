import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../src/modules/merchants/merchant.service';
import { parseRetrySchedule, retryDelay } from '../../src/modules/webhooks/retry-schedule';
import { signatureHeader, webhookHeaders } from '../../src/modules/webhooks/signing';
import { assertWebhookUrlAllowed, checkAddress, parseWebhookUrl } from '../../src/modules/webhooks/url-policy';
import { AppError } from '../../src/shared/errors';

describe('retry schedule', () => {
  it('parses ms, s, m and h, with spaces around the parts', () => {
    expect(parseRetrySchedule('200ms,5s, 30s ,2m,1h')).toEqual([200, 5_000, 30_000, 120_000, 3_600_000]);
    expect(parseRetrySchedule('250ms')).toEqual([250]);
  });

  it('parses the default schedule (CONTRACT §8): 5 s … 12 h, ten retries', () => {
    expect(parseRetrySchedule('5s,30s,2m,10m,30m,1h,2h,4h,8h,12h')).toEqual([
      5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000,
    ]);
  });

  it.each(['', '5', '5x', '-5s', '1.5s', '5s,,1m', '5 s s', 'soon', '5s;1m'])('refuses %j', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('jitters each delay within ±20 % of its step, using the injected random', () => {
    const schedule = [1_000, 60_000];
    expect(retryDelay(schedule, 1, () => 0)).toBe(800);
    expect(retryDelay(schedule, 1, () => 0.5)).toBe(1_000);
    expect(retryDelay(schedule, 1, () => 0.999999)).toBe(1_200);
    expect(retryDelay(schedule, 2, () => 0)).toBe(48_000);
    expect(retryDelay(schedule, 2, () => 0.999999)).toBe(72_000);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelay(schedule, 2)!;
      expect(delay).toBeGreaterThanOrEqual(48_000);
      expect(delay).toBeLessThanOrEqual(72_000);
    }
  });

  it('has no delay once the schedule is spent (the delivery has failed)', () => {
    expect(retryDelay([1_000, 2_000], 3, () => 0.5)).toBeUndefined();
    expect(retryDelay([], 1, () => 0.5)).toBeUndefined();
  });
});

describe('Standard Webhooks signatures', () => {
  const id = 'evt_0123456789abcdef';
  const body = JSON.stringify({ id, type: 'collection.successful', created_at: '2026-11-22T12:00:00.000Z', data: { reference: 'col_1' } });
  const headersFor = (signature: string, at: Date) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  });
  /** CONTRACT §8 worked by hand: base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" under the decoded secret. */
  const byHand = (secret: string, at: Date) =>
    `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${id}.${Math.floor(at.getTime() / 1000)}.${body}`)
      .digest('base64')}`;

  it('one secret: one v1 signature, verified by the standardwebhooks package and by hand', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const header = signatureHeader([secret], id, now, body);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(header).toBe(byHand(secret, now));
    expect(new Webhook(secret).verify(body, headersFor(header, now))).toEqual(JSON.parse(body));
  });

  it('two secrets (a rotation): two signatures, and each secret alone verifies the header', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const now = new Date();
    const header = signatureHeader([current, previous], id, now, body);
    expect(header.split(' ')).toEqual([byHand(current, now), byHand(previous, now)]);
    expect(() => new Webhook(current).verify(body, headersFor(header, now))).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headersFor(header, now))).not.toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headersFor(header, now))).toThrow();
  });

  it('a changed body or id does not verify', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const headers = webhookHeaders([secret], id, now, body);
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) });
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(body.replace('col_1', 'col_2'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_other' })).toThrow();
  });

  it('secrets are whsec_ and 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('webhook address policy (checkAddress)', () => {
  const forbiddenInProduction: Array<[string, string]> = [
    ['loopback IPv4', '127.0.0.1'],
    ['loopback IPv4, elsewhere in 127/8', '127.1.2.3'],
    ['loopback IPv6', '::1'],
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12, top', '172.31.255.254'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local, cloud metadata', '169.254.169.254'],
    ['link-local IPv6', 'fe80::1'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['unique-local IPv6', 'fd00::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['unspecified IPv4', '0.0.0.0'],
    ['unspecified IPv6', '::'],
    ['broadcast', '255.255.255.255'],
    ['multicast', '224.0.0.1'],
    ['documentation range', '192.0.2.1'],
    ['NAT64 of the metadata address', '64:ff9b::a9fe:a9fe'],
    ['6to4 of the metadata address', '2002:a9fe:a9fe::1'],
    ['IPv4-compatible metadata', '::a9fe:a9fe'],
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-compatible private, dotted', '::10.0.0.1'],
    ['IPv4-translated loopback', '::ffff:0:7f00:1'],
    ['local-use NAT64 of a private address', '64:ff9b:1::c0a8:101'],
    ['6to4 of loopback', '2002:7f00:1::'],
    ['Teredo with the metadata address as client', `2001:0:4136:e378:8000:63bf:${(0xa9fe ^ 0xffff).toString(16)}:${(0xa9fe ^ 0xffff).toString(16)}`],
  ];

  it.each(forbiddenInProduction)('production refuses %s (%s)', (_label, address) => {
    const verdict = checkAddress(address, 'production');
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(address);
  });

  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700:4700::1111'], ['::ffff:93.184.216.34'], ['64:ff9b::808:808'], ['2002:808:808::1']])(
    'production allows the public address %s (or an IPv6 form carrying one)',
    (address) => {
      expect(checkAddress(address, 'production')).toEqual({ allowed: true });
    },
  );

  it.each([['127.0.0.1'], ['::1'], ['::ffff:127.0.0.1'], ['10.0.0.1'], ['192.168.1.1'], ['93.184.216.34']])(
    'sandbox allows loopback, private and public addresses (%s), so merchants can test locally',
    (address) => {
      expect(checkAddress(address, 'sandbox')).toEqual({ allowed: true });
    },
  );

  it.each([
    ['link-local, the cloud metadata address', '169.254.169.254'],
    ['link-local IPv6', 'fe80::1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['AWS metadata over IPv6', 'fd00:ec2::254'],
    ['Alibaba Cloud metadata', '100.100.100.200'],
    ['NAT64 of the metadata address', '64:ff9b::a9fe:a9fe'],
    ['6to4 of the metadata address', '2002:a9fe:a9fe::1'],
    ['IPv4-compatible metadata', '::a9fe:a9fe'],
    ['IPv4-translated metadata', '::ffff:0:a9fe:a9fe'],
    ['unspecified', '0.0.0.0'],
    ['multicast', '224.0.0.1'],
  ])('sandbox still refuses %s (%s)', (_label, address) => {
    expect(checkAddress(address, 'sandbox').allowed).toBe(false);
  });

  it('refuses what is not an IP address', () => {
    expect(checkAddress('localhost', 'sandbox').allowed).toBe(false);
  });
});

describe('webhook URL policy (parseWebhookUrl, assertWebhookUrlAllowed)', () => {
  /** The INVALID_REQUEST a refused URL gives, with its issue on `url`. */
  const urlIssue = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      const appError = err as AppError;
      expect(appError.code).toBe('INVALID_REQUEST');
      expect(appError.details?.[0]?.field).toBe('url');
      return appError.details![0]!.issue;
    }
    throw new Error('the URL was accepted');
  };
  const asyncUrlIssue = async (promise: Promise<unknown>): Promise<string> => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (err === undefined) throw new Error('the URL was accepted');
    return urlIssue(() => {
      throw err;
    });
  };

  it('production refuses http; the sandbox accepts it', () => {
    expect(urlIssue(() => parseWebhookUrl('http://hooks.example.com/x', 'production'))).toBe('must use https');
    expect(parseWebhookUrl('http://hooks.example.com/x', 'sandbox').protocol).toBe('http:');
  });

  it.each(['sandbox', 'production'] as const)('%s refuses credentials, fragments, other schemes, non-URLs and missing values', (env) => {
    expect(urlIssue(() => parseWebhookUrl('https://user:pass@hooks.example.com/x', env))).toBe('must not contain credentials');
    expect(urlIssue(() => parseWebhookUrl('https://user@hooks.example.com/x', env))).toBe('must not contain credentials');
    expect(urlIssue(() => parseWebhookUrl('https://hooks.example.com/x#frag', env))).toBe('must not contain a fragment');
    expect(urlIssue(() => parseWebhookUrl('ftp://hooks.example.com/x', env))).toMatch(/must use/);
    expect(urlIssue(() => parseWebhookUrl('file:///etc/passwd', env))).toMatch(/must use/);
    expect(urlIssue(() => parseWebhookUrl('not a url', env))).toBe('is not a valid URL');
    expect(urlIssue(() => parseWebhookUrl('', env))).toBe('is required');
    expect(urlIssue(() => parseWebhookUrl(42, env))).toBe('is required');
    expect(urlIssue(() => parseWebhookUrl(`https://hooks.example.com/${'a'.repeat(2048)}`, env))).toMatch(/2048/);
  });

  it.each([
    ['decimal', 'https://2130706433/hooks'],
    ['hex', 'https://0x7f000001/hooks'],
    ['octal', 'https://0177.0.0.1/hooks'],
    ['short', 'https://127.1/hooks'],
  ])('normalises the %s IPv4 form to 127.0.0.1, and production refuses it', async (_label, raw) => {
    expect(parseWebhookUrl(raw, 'production').hostname).toBe('127.0.0.1');
    expect(await asyncUrlIssue(assertWebhookUrlAllowed(raw, 'production'))).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect((await assertWebhookUrlAllowed(raw, 'sandbox')).hostname).toBe('127.0.0.1');
  });

  it('production refuses IPv6 literals of forbidden ranges, bracketed as URLs write them', async () => {
    for (const raw of ['https://[::1]/h', 'https://[fd00::1]/h', 'https://[fe80::1]/h', 'https://[::ffff:127.0.0.1]/h', 'https://[::ffff:7f00:1]/h']) {
      expect(await asyncUrlIssue(assertWebhookUrlAllowed(raw, 'production'))).toMatch(/forbidden address/);
    }
  });

  it('production refuses a host name that resolves to loopback (localhost)', async () => {
    expect(await asyncUrlIssue(assertWebhookUrlAllowed('https://localhost/hooks', 'production'))).toMatch(/loopback/);
  });

  it('production accepts a public IP literal over https without any network access', async () => {
    expect((await assertWebhookUrlAllowed('https://93.184.216.34/hooks', 'production')).toString()).toBe('https://93.184.216.34/hooks');
    expect((await assertWebhookUrlAllowed('https://[2606:4700:4700::1111]:8443/h?x=1', 'production')).port).toBe('8443');
  });

  it('a host that does not resolve is refused on url', async () => {
    expect(await asyncUrlIssue(assertWebhookUrlAllowed('https://no-such-host.invalid/hooks', 'production'))).toBe('host does not resolve');
  });
});
