import {
  canonicalJson,
  fingerprintText,
  keepsAnswer,
  storedKeyState,
  withoutFields,
  type IdempotencyLimits,
} from '../../src/modules/idempotency/idempotency.rules';

/** Idempotency-Key's pure rules: what counts as the same request, what a stored key means, which answers are kept. */
describe('Idempotency-Key rules', () => {
  describe('canonicalJson', () => {
    it('gives one text for one value, whatever the key order, at every depth', () => {
      expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
      expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    });

    it('keeps JSON’s distinctions: a string is not a number, array order matters', () => {
      expect(canonicalJson({ amount: '1500' })).not.toBe(canonicalJson({ amount: 1500 }));
      expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    });

    it('reads undefined as JSON does (left out of objects, null in arrays)', () => {
      expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
      expect(canonicalJson([undefined])).toBe('[null]');
      expect(canonicalJson(undefined)).toBe('null');
    });

    it('escapes keys and strings, so no crafted value can look like another structure', () => {
      expect(canonicalJson({ 'a":1,"b': 2 })).not.toBe(canonicalJson({ a: 1, b: 2 }));
    });
  });

  describe('withoutFields', () => {
    it('drops the fields at dotted paths from a copy, leaving the original alone', () => {
      const body = { reference: 'r', card: { number: '4242', cvc: '123' } };
      expect(withoutFields(body, ['card.cvc'])).toEqual({ reference: 'r', card: { number: '4242' } });
      expect(body.card.cvc).toBe('123');
    });

    it('leaves anything without that path as it is', () => {
      expect(withoutFields({ card: 'x' }, ['card.cvc'])).toEqual({ card: 'x' });
      expect(withoutFields(null, ['card.cvc'])).toBeNull();
      expect(withoutFields([{ card: { cvc: '1' } }], ['card.cvc'])).toEqual([{ card: { cvc: '1' } }]);
    });
  });

  describe('fingerprintText', () => {
    const base = { method: 'POST', route: '/v1/customer/:uuid/kyc', params: { uuid: 'u1' }, body: { id_number: 'A1' } };

    it('tells apart the method, the route, the path parameters and the body', () => {
      const text = fingerprintText(base);
      expect(fingerprintText({ ...base, method: 'PUT' })).not.toBe(text);
      expect(fingerprintText({ ...base, route: '/v1/customer/enroll' })).not.toBe(text);
      expect(fingerprintText({ ...base, params: { uuid: 'u2' } })).not.toBe(text);
      expect(fingerprintText({ ...base, body: { id_number: 'A2' } })).not.toBe(text);
      expect(fingerprintText({ ...base, method: 'post' })).toBe(text);
    });

    it('leaves out the omitted fields', () => {
      const pay = { method: 'POST', route: '/v1/payments/initiate', params: {}, body: { card: { number: '4242', cvc: '123' } } };
      expect(fingerprintText(pay, ['card.cvc'])).toBe(fingerprintText({ ...pay, body: { card: { number: '4242', cvc: '999' } } }, ['card.cvc']));
      expect(fingerprintText(pay, ['card.cvc'])).not.toContain('123');
    });

    it('treats a missing body as null', () => {
      expect(fingerprintText({ ...base, body: undefined })).toBe(fingerprintText({ ...base, body: null }));
    });
  });

  describe('storedKeyState', () => {
    const limits: IdempotencyLimits = { retentionMs: 24 * 3600_000, lockTimeoutMs: 60_000 };
    const at = new Date('2026-11-22T12:00:00Z');
    const later = (ms: number) => new Date(at.getTime() + ms);
    const row = (completed: boolean, fingerprint = 'f') => ({ fingerprint, createdAt: at, completed });

    it('a completed row of the same request is replayed, up to the end of its 24 h', () => {
      expect(storedKeyState(row(true), 'f', later(0), limits)).toBe('replay');
      expect(storedKeyState(row(true), 'f', later(limits.retentionMs - 1), limits)).toBe('replay');
      expect(storedKeyState(row(true), 'f', later(limits.retentionMs), limits)).toBe('absent');
    });

    it('another request under the key is a mismatch, completed or in flight, abandoned or not, until the key expires', () => {
      expect(storedKeyState(row(true), 'g', later(0), limits)).toBe('mismatch');
      expect(storedKeyState(row(false), 'g', later(0), limits)).toBe('mismatch');
      expect(storedKeyState(row(false), 'g', later(limits.lockTimeoutMs), limits)).toBe('mismatch');
      expect(storedKeyState(row(true), 'g', later(limits.retentionMs), limits)).toBe('absent');
    });

    it('a claim is in progress until the lock timeout, then abandoned (taken over)', () => {
      expect(storedKeyState(row(false), 'f', later(0), limits)).toBe('in_progress');
      expect(storedKeyState(row(false), 'f', later(limits.lockTimeoutMs - 1), limits)).toBe('in_progress');
      expect(storedKeyState(row(false), 'f', later(limits.lockTimeoutMs), limits)).toBe('absent');
    });

    it('a claim whose holder is gone (its instance stopped heartbeating) is abandoned at once; a completed row or another request is not', () => {
      const gone = (completed: boolean, fingerprint = 'f') => ({ ...row(completed, fingerprint), holderGone: true });
      expect(storedKeyState(gone(false), 'f', later(0), limits)).toBe('absent');
      expect(storedKeyState({ ...row(false), holderGone: false }, 'f', later(0), limits)).toBe('in_progress');
      expect(storedKeyState(gone(true), 'f', later(0), limits)).toBe('replay');
      expect(storedKeyState(gone(false), 'g', later(0), limits)).toBe('mismatch');
    });
  });

  it('keeps the answers of requests that began to execute: not a 5xx, not a 400 INVALID_REQUEST', () => {
    expect([200, 201, 403, 404, 409].map(keepsAnswer)).toEqual([true, true, true, true, true]);
    expect([400, 500, 503].map(keepsAnswer)).toEqual([false, false, false]);
  });
});
