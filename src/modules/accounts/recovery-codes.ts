import { randomInt } from 'node:crypto';
import { sha256Hex } from '../../shared/crypto';

/** Ten single-use recovery codes, shown once at 2FA enrolment and stored as SHA-256 hashes (each has 50 random bits). */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx`, from an alphabet without look-alikes. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A code as typed (any case, spaces or no dash) to its stored hash. */
export function recoveryCodeHash(typed: string): string {
  const plain = typed.toLowerCase().replace(/[^a-z0-9]/g, '');
  return sha256Hex(`recovery:${plain.slice(0, 5)}-${plain.slice(5)}`);
}

/** Whether what was typed looks like a recovery code rather than a TOTP code. */
export function looksLikeRecoveryCode(typed: string): boolean {
  return typed.replace(/[^A-Za-z0-9]/g, '').length === 10;
}
