import { randomUUID } from 'node:crypto';
import type { Sql } from '../../src/db/sql';
import { CardOtpChallenges, cardOtpPath } from '../../src/modules/transactions/kinds/payment/card-otp';
import { PublicAddress } from '../../src/shared/public-address';

/** The one-time code page's handle: the payment's id and a MAC over it, checked without a read. */
describe('the one-time code page’s handle', () => {
  const publicAddress = new PublicAddress('https://pay.example');
  const challenges = (key: Buffer) => new CardOtpChallenges({ key, sql: {} as Sql, publicAddress });
  const ours = challenges(Buffer.alloc(32, 1));
  const id = randomUUID();
  const handle = ours.url(id).slice('https://pay.example'.length + cardOtpPath('').length);

  it('is the id and 32 base64url characters of MAC, on our page', () => {
    expect(ours.url(id)).toBe(`https://pay.example/checkout/otp/${handle}`);
    expect(handle).toMatch(new RegExp(`^${id}\\.[A-Za-z0-9_-]{32}$`));
    expect(ours.transactionOf(handle)).toBe(id);
  });

  it('names nothing when forged: another id, another MAC, another key, or not the shape', () => {
    const [, mac] = handle.split('.');
    expect(ours.transactionOf(`${randomUUID()}.${mac}`)).toBeNull();
    expect(ours.transactionOf(`${id}.${'A'.repeat(32)}`)).toBeNull();
    expect(challenges(Buffer.alloc(32, 2)).transactionOf(handle)).toBeNull();
    for (const bad of [id, `${id}.`, `${id}.${mac}x`, `${id.toUpperCase()}.${mac}`, '', `../${handle}`]) expect(ours.transactionOf(bad)).toBeNull();
  });
});
