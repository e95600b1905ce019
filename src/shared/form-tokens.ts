import { randomBytes } from 'node:crypto';
import { hmac, safeEqual } from './crypto';

/**
 * CSRF protection for the service's own HTML forms (the sandbox 3-D Secure
 * page): a signed double-submit token. The page sets a random cookie and puts
 * an HMAC of the cookie and the form's subject in a hidden field; a submission
 * counts only with both, and a page on another site can read neither. The key
 * is derived from the encryption key, so every instance checks what any issued.
 */
export class FormTokens {
  constructor(private readonly key: Buffer) {}

  issue(subject: string): { cookie: string; field: string } {
    const cookie = randomBytes(18).toString('base64url');
    return { cookie, field: hmac(this.key, subject, cookie) };
  }

  verify(subject: string, cookie: string | undefined, field: string | undefined): boolean {
    if (!cookie || !field) return false;
    return safeEqual(hmac(this.key, subject, cookie), field);
  }
}
