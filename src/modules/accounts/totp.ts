import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * TOTP (RFC 6238) through `otpauth` (maintained, typed, no dependencies): SHA-1, 6 digits, 30 s,
 * what every authenticator app reads. A code is accepted one step either side of now (clock drift),
 * and never twice: the step it matched is kept and a code of that step or an earlier one is refused.
 */
const ISSUER = 'Payments Gateway';
const WINDOW = 1;

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

/** A new 160-bit secret, base32 (what an authenticator app's manual entry takes). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What the enrolment screen shows: the otpauth:// URI and its QR code as an SVG document. */
export async function totpEnrolment(secretBase32: string, email: string): Promise<{ otpauthUri: string; qrSvg: string }> {
  const otpauthUri = totpOf(secretBase32, email).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, qrSvg };
}

/**
 * The time step the code matches (within ±1 step of `at`), if it is later than `lastStep` (a code
 * already used, or an older one, is refused); undefined when it does not match.
 */
export function matchTotp(secretBase32: string, code: string, at: Date, lastStep: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = totpOf(secretBase32, 'check');
  const delta = totp.validate({ token: code, timestamp: at.getTime(), window: WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(at.getTime() / 1000 / 30) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** The code of a moment (tests, and a test's browser, compute what an authenticator app would show). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpOf(secretBase32, 'code').generate({ timestamp: at.getTime() });
}
