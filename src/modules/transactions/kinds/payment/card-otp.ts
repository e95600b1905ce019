import type { Sql } from '../../../../db/sql';
import { hmac, safeEqual } from '../../../../shared/crypto';
import type { PublicAddress } from '../../../../shared/public-address';

/** Where the page for a one-time code is served (transport/checkout/card-otp.routes.ts). */
export const cardOtpPath = (handle: string) => `/checkout/otp/${handle}`;

/** How many codes a cardholder may enter for one payment: the third wrong one fails it (authentication_failed). */
export const OTP_TRIES = 3;

/** The transaction's id, then the MAC's first 32 base64url characters (192 bits). */
const HANDLE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{32})$/;

/**
 * The one-time code step of a card payment (Flutterwave's PIN cards: after the PIN, the issuer texts a code that the
 * cardholder enters on our page). The page's handle is the transaction's id and a MAC over it with a key of its own
 * (derived from the encryption key for this use only): unguessable, checked without a read, and stored nowhere; it
 * stops working when the payment is decided or its deadline (`expires_at`) passes. The tries are counted in
 * `card_otp_try` (one row per payment that has had a code entered), so that a fourth code is never sent.
 */
export class CardOtpChallenges {
  private readonly key: Buffer;
  private readonly sql: Sql;
  private readonly publicAddress: PublicAddress;

  constructor({ key, sql, publicAddress }: { key: Buffer; sql: Sql; publicAddress: PublicAddress }) {
    this.key = key;
    this.sql = sql;
    this.publicAddress = publicAddress;
  }

  private mac(transactionId: string): string {
    return hmac(this.key, 'card-otp', transactionId).slice(0, 32);
  }

  /** The page's address for a payment (its `next_action.url` while it waits for the code). */
  url(transactionId: string): string {
    return `${this.publicAddress.url}${cardOtpPath(`${transactionId}.${this.mac(transactionId)}`)}`;
  }

  /** The transaction a handle names, when its MAC is right; else null. */
  transactionOf(handle: string): string | null {
    const match = HANDLE.exec(handle);
    if (!match) return null;
    return safeEqual(match[2]!, this.mac(match[1]!)) ? match[1]! : null;
  }

  /**
   * Takes one of the payment's tries before a code is sent on, atomically (two submissions at once take two): the
   * number of this try (1 to OTP_TRIES), or null when none is left.
   */
  async takeTry(transactionId: string): Promise<number | null> {
    const [row] = await this.sql.query<{ tries: number }>(
      `insert into card_otp_try (transaction_id, tries) values ($1, 1)
       on conflict (transaction_id) do update set tries = card_otp_try.tries + 1 where card_otp_try.tries < $2
       returning tries`,
      [transactionId, OTP_TRIES],
      'card_otp_try_take',
    );
    return row?.tries ?? null;
  }
}
