import { redact } from '../../src/modules/audit/audit-log';

/** The audit log's before/after values: secrets redacted by the words of their keys, nothing else. */
describe('redact', () => {
  it('redacts secret-named keys at any depth, in snake_case and camelCase', () => {
    expect(
      redact({
        client_secret: 'sk_x',
        passwordHash: 'h',
        refresh_token: 'rt',
        totp_code: '123456',
        nested: { webhookSecret: 'whsec', list: [{ cvc: '123' }] },
      }),
    ).toEqual({
      client_secret: '[redacted]',
      passwordHash: '[redacted]',
      refresh_token: '[redacted]',
      totp_code: '[redacted]',
      nested: { webhookSecret: '[redacted]', list: [{ cvc: '[redacted]' }] },
    });
    expect(redact({ code: '123456', recoveryCodes: ['a'], card_number: '4242' })).toEqual({
      code: '[redacted]',
      recoveryCodes: '[redacted]',
      card_number: '[redacted]',
    });
  });

  it('keeps keys whose letters merely contain a secret word (company, country_code, shipping, and the like)', () => {
    const kept = { company: 'Acme', country_code: 'KE', shipping: 'x', role: 'viewer', email: 'a@b.c', url: 'https://x', event_types: ['a'], spin: 1 };
    expect(redact(kept)).toEqual(kept);
  });
});
