import { hash, verify, Algorithm } from '@node-rs/argon2';
import { z } from 'zod';
import { randomToken } from '../../shared/crypto';

/**
 * Passwords, hashed with argon2id (@node-rs/argon2: maintained, prebuilt for every platform, no
 * build step). The cost is OWASP's first argon2id configuration (m = 19 MiB, t = 2, p = 1), measured
 * in docs/design.md (Libraries, Password hashing) and BENCHMARKS.md (issue 36); it runs only on
 * sign-up, sign-in, reset and invitations, never on a payments path.
 */
export const PASSWORD_HASH_OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** A password's own rules (not the email: checked with the email by `passwordProblem`). */
const passwordSchema = z
  .string({ error: 'is required' })
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

/** Why this password may not be used by this email's owner; undefined when it may. */
export function passwordProblem(password: string, email: string): string | undefined {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]!.message;
  const lower = password.trim().toLowerCase();
  const address = email.trim().toLowerCase();
  if (lower === address || lower === address.split('@')[0]) return 'must not be your email address';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/**
 * A hash of a random password, made once: checked against when the email is unknown, so a known
 * and an unknown email cost the same argon2 verification and answer the same.
 */
let decoy: Promise<string> | undefined;
function decoyHash(): Promise<string> {
  decoy ??= hash(randomToken('decoy'), PASSWORD_HASH_OPTIONS);
  return decoy;
}

/** Constant-time argon2 verification; with no stored hash (unknown email) the decoy is verified and false answered. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const against = stored ?? (await decoyHash());
  let ok = false;
  try {
    ok = await verify(against, password);
  } catch {
    ok = false;
  }
  return ok && stored !== undefined;
}

/** Made at start, so the first unknown email does not pay for it (its timing would tell). */
export async function warmPasswordDecoy(): Promise<void> {
  await decoyHash();
}
