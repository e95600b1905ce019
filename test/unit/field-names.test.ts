import { domainKey, fromRest, restJsonSchema, restName } from '../../src/transport/rest/field-names';
import { AppError } from '../../src/shared/errors';

describe('REST field names ↔ domain names', () => {
  it.each([
    ['customerUuid', 'customer_uuid'],
    ['card.expYear', 'card.exp_year'],
    ['address.postalCode', 'address.postal_code'],
    ['customerId', 'customerid'],
    ['rampType', 'ramptype'],
    ['line1', 'line1'],
    ['limit', 'limit'],
  ])('%s is %s over REST, and back', (domain, rest) => {
    expect(restName(domain)).toBe(rest);
    expect(
      rest
        .split('.')
        .map((k) => domainKey(k))
        .join('.'),
    ).toBe(domain);
  });

  it('names a field that is not a domain identifier (a header) as it is', () => {
    expect(restName('Idempotency-Key')).toBe('Idempotency-Key');
  });

  it('reads a body into domain names, nested objects and arrays included', () => {
    expect(fromRest({ customer_uuid: 'u', card: { exp_month: 1, postal_code: null }, items: [{ dial_code: '+1' }], amount: 5 })).toEqual({
      customerUuid: 'u',
      card: { expMonth: 1, postalCode: null },
      items: [{ dialCode: '+1' }],
      amount: 5,
    });
  });

  it('drops keys that are not REST names: camelCase, or a second spelling of a spec name', () => {
    expect(fromRest({ customerUuid: 'a', customer_id: 'b', ramp_type: 'c', __proto__x: 1, customerid: 'd' })).toEqual({ customerId: 'd' });
  });

  it('leaves values alone, whatever their shape', () => {
    expect(fromRest('text')).toBe('text');
    expect(fromRest(null)).toBeNull();
    expect(fromRest({ reason: { nested_value: 1 } })).toEqual({ reason: { nestedValue: 1 } });
  });

  it('renames the properties and required list of a JSON schema, but not its examples', () => {
    expect(
      restJsonSchema({
        type: 'object',
        properties: { customerUuid: { type: 'string' }, card: { type: 'object', properties: { expMonth: { type: 'integer' } }, required: ['expMonth'] } },
        required: ['customerUuid'],
        examples: [{ customerUuid: 'x' }],
      }),
    ).toEqual({
      type: 'object',
      properties: { customer_uuid: { type: 'string' }, card: { type: 'object', properties: { exp_month: { type: 'integer' } }, required: ['exp_month'] } },
      required: ['customer_uuid'],
      examples: [{ customerUuid: 'x' }],
    });
  });
});

describe('AppError.view: one error, said in each door’s names', () => {
  it('rebuilds a message made of its fields', () => {
    const err = AppError.invalidFields(
      [
        { field: 'card.expMonth', issue: 'must be a month from 1 to 12' },
        { field: 'dialCode', issue: 'is required' },
      ],
      'request',
    );
    expect(err.message).toBe('Invalid request: card.expMonth must be a month from 1 to 12; dialCode is required');
    expect(err.view(restName)).toEqual({
      message: 'Invalid request: card.exp_month must be a month from 1 to 12; dial_code is required',
      details: [
        { field: 'card.exp_month', issue: 'must be a month from 1 to 12' },
        { field: 'dial_code', issue: 'is required' },
      ],
    });
  });

  it('keeps a written-out message as it is, renaming only its details', () => {
    const err = AppError.invalidRequest('Malformed JSON body');
    expect(err.view(restName)).toEqual({ message: 'Malformed JSON body' });
    const withDetails = AppError.invalidRequest('The URL host does not resolve', [{ field: 'webhookUrl', issue: 'host does not resolve' }]);
    expect(withDetails.view(restName)).toEqual({
      message: 'The URL host does not resolve',
      details: [{ field: 'webhook_url', issue: 'host does not resolve' }],
    });
  });
});
