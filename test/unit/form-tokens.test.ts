import { FormTokens } from '../../src/shared/form-tokens';

const key = Buffer.alloc(32, 7);
const tokens = new FormTokens(key);
const SUBJECT = 'h_7f3a9c';

/** The same string with one character changed, staying inside base64url. */
const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);

describe('FormTokens', () => {
  describe('issue', () => {
    it('gives a base64url cookie (18 random bytes) and a base64url field (an HMAC-SHA256)', () => {
      const { cookie, field } = tokens.issue(SUBJECT);
      expect(cookie).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(field).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(field).not.toBe(cookie);
      expect(field).not.toContain(cookie);
    });

    it('gives a fresh cookie, and so a fresh field, every time', () => {
      const issued = Array.from({ length: 50 }, () => tokens.issue(SUBJECT));
      expect(new Set(issued.map((t) => t.cookie)).size).toBe(50);
      expect(new Set(issued.map((t) => t.field)).size).toBe(50);
    });

    it('does not put the subject in either value', () => {
      const { cookie, field } = tokens.issue('subject-in-clear');
      expect(cookie).not.toContain('subject');
      expect(field).not.toContain('subject');
    });
  });

  describe('verify', () => {
    const { cookie, field } = tokens.issue(SUBJECT);

    it('accepts the cookie and field it issued, for their subject', () => {
      expect(tokens.verify(SUBJECT, cookie, field)).toBe(true);
    });

    it('accepts them from another instance with the same key (any instance checks what any issued)', () => {
      expect(new FormTokens(Buffer.from(key)).verify(SUBJECT, cookie, field)).toBe(true);
    });

    it('works for an empty subject too, and only for it', () => {
      const t = tokens.issue('');
      expect(tokens.verify('', t.cookie, t.field)).toBe(true);
      expect(tokens.verify(SUBJECT, t.cookie, t.field)).toBe(false);
    });

    const other = tokens.issue(SUBJECT);
    const otherSubject = tokens.issue('h_other');

    it.each<[string, string, string | undefined, string | undefined]>([
      ['another subject', 'h_other', cookie, field],
      ['a subject one character longer', `${SUBJECT}x`, cookie, field],
      ['a subject one character shorter', SUBJECT.slice(0, -1), cookie, field],
      ['the subject in another case', SUBJECT.toUpperCase(), cookie, field],
      ['an empty subject', '', cookie, field],
      ['another issued cookie', SUBJECT, other.cookie, field],
      ['another issued field', SUBJECT, cookie, other.field],
      ['a cookie and field issued for another subject', SUBJECT, otherSubject.cookie, otherSubject.field],
      ['a cookie with one character changed', SUBJECT, flip(cookie, 0), field],
      ['a cookie with its last character changed', SUBJECT, flip(cookie, cookie.length - 1), field],
      ['a field with one character changed', SUBJECT, cookie, flip(field, 0)],
      ['a field with its last character changed', SUBJECT, cookie, flip(field, field.length - 1)],
      ['a truncated field', SUBJECT, cookie, field.slice(0, -1)],
      ['a field with a character more', SUBJECT, cookie, `${field}A`],
      ['a field with padding', SUBJECT, cookie, `${field}=`],
      ['the field in base64 instead of base64url', SUBJECT, cookie, Buffer.from(field, 'base64url').toString('base64')],
      ['the field as hex', SUBJECT, cookie, Buffer.from(field, 'base64url').toString('hex')],
      ['cookie and field swapped', SUBJECT, field, cookie],
      ['the cookie as the field too', SUBJECT, cookie, cookie],
      ['the field as the cookie too', SUBJECT, field, field],
      ['an empty cookie', SUBJECT, '', field],
      ['an empty field', SUBJECT, cookie, ''],
      ['both empty', SUBJECT, '', ''],
      ['no cookie', SUBJECT, undefined, field],
      ['no field', SUBJECT, cookie, undefined],
      ['neither', SUBJECT, undefined, undefined],
      ['a cookie with whitespace around it', SUBJECT, ` ${cookie}`, field],
      ['a field with whitespace around it', SUBJECT, cookie, `${field} `],
    ])('refuses %s', (_why, subject, c, f) => {
      expect(tokens.verify(subject, c, f)).toBe(false);
    });

    it('refuses a cookie and field issued under another key', () => {
      const foreign = new FormTokens(Buffer.alloc(32, 8)).issue(SUBJECT);
      expect(tokens.verify(SUBJECT, foreign.cookie, foreign.field)).toBe(false);
      expect(new FormTokens(Buffer.alloc(32, 8)).verify(SUBJECT, cookie, field)).toBe(false);
    });

    it('cannot be fooled by moving characters between subject and cookie', () => {
      // hmac(subject, cookie) is length-prefixed, so ("ab", "c…") and ("a", "bc…") differ.
      const t = tokens.issue('ab');
      expect(tokens.verify('a', `b${t.cookie}`, t.field)).toBe(false);
      expect(tokens.verify(`ab${t.cookie.slice(0, 1)}`, t.cookie.slice(1), t.field)).toBe(false);
    });
  });
});
