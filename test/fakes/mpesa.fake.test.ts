/**
 * The M-Pesa Daraja fake's own tests: that it is as strict as the documentation it follows
 * (see the header of mpesa.fake.ts), that callbacks go out once, and that its faults behave.
 */
import { startReceiver, type Receiver } from '../helpers/receiver';
import { assertLoopbackUrl, MpesaFake, type MpesaFakeOptions } from './mpesa.fake';

let fake: MpesaFake;
let receiver: Receiver;

async function setup(options: MpesaFakeOptions = {}) {
  fake = await MpesaFake.start({ decisionDelayMs: 10, ...options });
  receiver = await startReceiver();
}

afterEach(async () => {
  const errors = fake.internalErrors;
  await fake.close();
  await receiver.close();
  expect(errors).toEqual([]);
});

interface Reply {
  status: number;
  json: any;
  text: string;
}

async function call(method: string, path: string, options: { auth?: string; body?: unknown; contentType?: string; timeoutMs?: number } = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.auth !== undefined) headers.authorization = options.auth;
  if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

const basic = (key = fake.env().MPESA_CONSUMER_KEY, secret = fake.env().MPESA_CONSUMER_SECRET) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

async function token(): Promise<string> {
  const r = await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() });
  expect(r.status).toBe(200);
  return r.json.access_token;
}

/** YYYYMMDDHHmmss in Nairobi time (UTC+3), as Daraja clients write it. */
function timestamp(at = new Date(), offsetHours = 3): string {
  return new Date(at.getTime() + offsetHours * 3_600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function stkPassword(ts: string, shortcode = fake.env().MPESA_SHORTCODE, passkey = fake.env().MPESA_PASSKEY) {
  return Buffer.from(`${shortcode}${passkey}${ts}`).toString('base64');
}

function stkBody(overrides: Record<string, unknown> = {}) {
  const env = fake.env();
  const ts = timestamp();
  return {
    BusinessShortCode: env.MPESA_SHORTCODE,
    Password: stkPassword(ts),
    Timestamp: ts,
    TransactionType: 'CustomerPayBillOnline',
    Amount: 10,
    PartyA: '254708374149',
    PartyB: env.MPESA_SHORTCODE,
    PhoneNumber: '254708374149',
    CallBackURL: `${receiver.url}/stk`,
    AccountReference: 'INV-1',
    TransactionDesc: 'Order 1',
    ...overrides,
  };
}

async function stkPush(overrides: Record<string, unknown> = {}, auth?: string): Promise<Reply> {
  return call('POST', '/mpesa/stkpush/v1/processrequest', { auth: auth ?? `Bearer ${await token()}`, body: stkBody(overrides) });
}

async function stkQuery(checkoutRequestId: string, overrides: Record<string, unknown> = {}): Promise<Reply> {
  const ts = timestamp();
  const body = { BusinessShortCode: fake.env().MPESA_SHORTCODE, Password: stkPassword(ts), Timestamp: ts, CheckoutRequestID: checkoutRequestId, ...overrides };
  return call('POST', '/mpesa/stkpushquery/v1/query', { auth: `Bearer ${await token()}`, body });
}

let originators = 0;
function b2cBody(overrides: Record<string, unknown> = {}) {
  const env = fake.env();
  originators += 1;
  return {
    OriginatorConversationID: `test-${Date.now()}-${originators}`,
    InitiatorName: env.MPESA_B2C_INITIATOR_NAME,
    SecurityCredential: env.MPESA_B2C_SECURITY_CREDENTIAL,
    CommandID: 'BusinessPayment',
    Amount: 100,
    PartyA: env.MPESA_B2C_SHORTCODE,
    PartyB: '254708374149',
    Remarks: 'payout',
    QueueTimeOutURL: `${receiver.url}/b2c-timeout`,
    ResultURL: `${receiver.url}/b2c-result`,
    Occassion: 'test',
    ...overrides,
  };
}

async function b2c(overrides: Record<string, unknown> = {}): Promise<Reply> {
  return call('POST', '/mpesa/b2c/v3/paymentrequest', { auth: `Bearer ${await token()}`, body: b2cBody(overrides) });
}

async function transactionStatus(overrides: Record<string, unknown> = {}): Promise<Reply> {
  const env = fake.env();
  const body = {
    Initiator: env.MPESA_B2C_INITIATOR_NAME,
    SecurityCredential: env.MPESA_B2C_SECURITY_CREDENTIAL,
    CommandID: 'TransactionStatusQuery',
    PartyA: env.MPESA_B2C_SHORTCODE,
    IdentifierType: '4',
    ResultURL: `${receiver.url}/status`,
    QueueTimeOutURL: `${receiver.url}/status-timeout`,
    Remarks: 'status',
    Occasion: 'check',
    ...overrides,
  };
  return call('POST', '/mpesa/transactionstatus/v1/query', { auth: `Bearer ${await token()}`, body });
}

/** Callbacks the receiver got whose body mentions `id`. */
const callbacksFor = (id: string) => receiver.received.filter((r) => r.body.includes(id)).map((r) => JSON.parse(r.body));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const darajaError = (errorCode: string, errorMessage: string) => ({ requestId: expect.any(String), errorCode, errorMessage });

describe('OAuth', () => {
  beforeEach(() => setup());

  it('issues a token for the right Basic credentials, expires_in a string', async () => {
    const r = await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ access_token: expect.stringMatching(/^[A-Za-z0-9]{28}$/), expires_in: '3599' });
    expect(fake.tokensIssued).toBe(1);
  });

  it('answers 400 400.008.01 for a wrong secret, a wrong key, no header, or a non-Basic scheme', async () => {
    for (const auth of [basic(undefined, 'wrong'), basic('wrong'), undefined, `Bearer ${Buffer.from('a:b').toString('base64')}`]) {
      const r = await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(darajaError('400.008.01', 'Invalid Authentication passed'));
    }
    expect(fake.tokensIssued).toBe(0);
  });

  it('answers 400 400.008.02 for a missing or wrong grant_type', async () => {
    for (const path of ['/oauth/v1/generate', '/oauth/v1/generate?grant_type=password']) {
      const r = await call('GET', path, { auth: basic() });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(darajaError('400.008.02', 'Invalid grant type passed'));
    }
  });

  it('answers 405 405.001 to a POST, 404 404.001.01 to an unknown path', async () => {
    expect((await call('POST', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).json.errorCode).toBe('405.001');
    const r = await call('POST', '/mpesa/b2c/v1/paymentrequest', { auth: `Bearer ${await token()}`, body: b2cBody() });
    expect(r.status).toBe(404);
    expect(r.json).toEqual(darajaError('404.001.01', 'Resource not found'));
  });

  it('refuses a missing header (404.001.04), an unknown token and a superseded one (404.001.03), all HTTP 404', async () => {
    const none = await call('POST', '/mpesa/stkpush/v1/processrequest', { body: stkBody() });
    expect(none.status).toBe(404);
    expect(none.json).toEqual(darajaError('404.001.04', 'Invalid Authentication Header'));

    const bogus = await stkPush({}, 'Bearer not-a-token');
    expect(bogus.status).toBe(404);
    expect(bogus.json).toEqual(darajaError('404.001.03', 'Invalid Access Token'));

    const first = await token();
    await token(); // [P] "each request invalidates the previous token"
    const superseded = await stkPush({}, `Bearer ${first}`);
    expect(superseded.status).toBe(404);
    expect(superseded.json.errorCode).toBe('404.001.03');
    expect(fake.stk.size).toBe(0);
  });
});

describe('token expiry', () => {
  beforeEach(() => setup({ tokenTtlS: 1 }));

  it('refuses an expired token with 404.001.03 Invalid Access Token', async () => {
    const r = await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() });
    expect(r.json.expires_in).toBe('1');
    const auth = `Bearer ${r.json.access_token}`;
    expect(
      (await call('POST', '/mpesa/stkpush/v1/processrequest', { auth, body: stkBody({ PhoneNumber: '254708370001', PartyA: '254708370001' }) })).status,
    ).toBe(200);
    await sleep(1100);
    const expired = await call('POST', '/mpesa/stkpush/v1/processrequest', { auth, body: stkBody() });
    expect(expired.status).toBe(404);
    expect(expired.json).toEqual(darajaError('404.001.03', 'Invalid Access Token'));
  });

  it('expireTokens() expires every token at once', async () => {
    const auth = `Bearer ${await token()}`;
    fake.expireTokens();
    expect((await stkPush({}, auth)).json.errorCode).toBe('404.001.03');
  });
});

describe('STK Push', () => {
  beforeEach(() => setup());

  it('accepts a valid push, then POSTs one documented success callback and answers the query', async () => {
    const r = await stkPush({ Amount: '25' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      MerchantRequestID: expect.any(String),
      CheckoutRequestID: expect.stringMatching(/^ws_CO_\d{17}708374149$/),
      ResponseCode: '0',
      ResponseDescription: 'Success. Request accepted for processing',
      CustomerMessage: 'Success. Request accepted for processing',
    });
    const id = r.json.CheckoutRequestID;
    expect(fake.stk.get(id)).toMatchObject({ checkoutRequestId: id, merchantRequestId: r.json.MerchantRequestID, resultCode: null, receipt: null });

    await fake.callbackDelivered(id);
    const stk = fake.stk.get(id)!;
    expect(stk).toMatchObject({
      resultCode: 0,
      resultDesc: 'The service request is processed successfully.',
      receipt: expect.stringMatching(/^[A-Z]{3}[A-Z0-9]{7}$/),
    });
    const [callback] = callbacksFor(id);
    expect(receiver.received.find((x) => x.body.includes(id))!.path).toBe('/hooks/stk');
    expect(receiver.received.find((x) => x.body.includes(id))!.headers['content-type']).toBe('application/json');
    expect(callback).toEqual({
      Body: {
        stkCallback: {
          MerchantRequestID: r.json.MerchantRequestID,
          CheckoutRequestID: id,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: 25 },
              { Name: 'MpesaReceiptNumber', Value: stk.receipt },
              { Name: 'TransactionDate', Value: expect.any(Number) },
              { Name: 'PhoneNumber', Value: 254708374149 },
            ],
          },
        },
      },
    });
    expect(String(callback.Body.stkCallback.CallbackMetadata.Item[2].Value)).toMatch(/^20\d{12}$/);

    const q = await stkQuery(id);
    expect(q.status).toBe(200);
    expect(q.json).toEqual({
      ResponseCode: '0',
      ResponseDescription: 'The service request has been accepted successfully',
      MerchantRequestID: r.json.MerchantRequestID,
      CheckoutRequestID: id,
      ResultCode: '0',
      ResultDesc: 'The service request is processed successfully.',
    });
  });

  it('accepts a Timestamp written in UTC as well as in Nairobi time', async () => {
    const ts = timestamp(new Date(), 0);
    expect((await stkPush({ Timestamp: ts, Password: stkPassword(ts) })).status).toBe(200);
  });

  it('rejects a wrong Password, a Password built on another Timestamp, and an unknown shortcode (500.001.1001)', async () => {
    const wrong = await stkPush({ Password: stkPassword(timestamp(), undefined, 'not-the-passkey') });
    expect(wrong.status).toBe(500);
    expect(wrong.json).toEqual(darajaError('500.001.1001', '[MerchantValidate] - Wrong credentials'));

    const older = new Date(Date.now() - 60_000);
    const mismatch = await stkPush({ Password: stkPassword(timestamp(older)) });
    expect(mismatch.json.errorMessage).toBe('[MerchantValidate] - Wrong credentials');

    const missing = await stkPush({ Password: undefined });
    expect(missing.json.errorMessage).toBe('[MerchantValidate] - Wrong credentials');

    const ts = timestamp();
    const merchant = await stkPush({ BusinessShortCode: '600000', PartyB: '600000', Password: stkPassword(ts, '600000'), Timestamp: ts });
    expect(merchant.status).toBe(500);
    expect(merchant.json).toEqual(darajaError('500.001.1001', 'Merchant does not exist'));
    expect(fake.stk.size).toBe(0);
  });

  it.each([
    ['PhoneNumber', { PhoneNumber: '0708374149' }],
    ['PhoneNumber', { PhoneNumber: '+254708374149' }],
    ['PhoneNumber', { PhoneNumber: '254208374149' }],
    ['PhoneNumber', { PhoneNumber: '25470837414' }],
    ['PartyA', { PartyA: '0708374149' }],
    ['Amount', { Amount: 10.5 }],
    ['Amount', { Amount: '10.00' }],
    ['Amount', { Amount: 0 }],
    ['Amount', { Amount: -5 }],
    ['Amount', { Amount: 250_001 }],
    ['Timestamp', { Timestamp: '2024-01-01T10:00:00' }],
    ['Timestamp', { Timestamp: '20241301100000' }],
    ['TransactionType', { TransactionType: 'CustomerPayBill' }],
    ['CallBackURL', { CallBackURL: 'not a url' }],
    ['AccountReference', { AccountReference: 'ABCDEFGHIJKLM' }],
    ['AccountReference', { AccountReference: undefined }],
    ['TransactionDesc', { TransactionDesc: 'fourteen chars' }],
    ['BusinessShortCode', { BusinessShortCode: 'abc' }],
  ])('rejects a bad %s with 400 400.002.02 (%j)', async (field, overrides) => {
    const r = await stkPush(overrides);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(darajaError('400.002.02', `Bad Request - Invalid ${field}`));
    expect(fake.stk.size).toBe(0);
  });

  it('rejects a Timestamp six hours old or two hours ahead, and accepts TransactionDesc left out', async () => {
    for (const shiftHours of [-6, 2]) {
      const ts = timestamp(new Date(Date.now() + shiftHours * 3_600_000));
      expect((await stkPush({ Timestamp: ts, Password: stkPassword(ts) })).json.errorMessage).toBe('Bad Request - Invalid Timestamp');
    }
    expect((await stkPush({ TransactionDesc: undefined })).status).toBe(200);
  });

  it('reads a non-JSON Content-Type as an empty body: Invalid BusinessShortCode, as the FAQ says', async () => {
    const r = await call('POST', '/mpesa/stkpush/v1/processrequest', {
      auth: `Bearer ${await token()}`,
      body: JSON.stringify(stkBody()),
      contentType: 'text/plain',
    });
    expect(r.status).toBe(400);
    expect(r.json.errorMessage).toBe('Bad Request - Invalid BusinessShortCode');
  });

  it('refuses a callback host other than 127.0.0.1, and never calls it', async () => {
    for (const url of ['https://example.com/cb', 'http://localhost:1/cb', 'https://127.0.0.1/cb']) {
      const r = await stkPush({ CallBackURL: url });
      expect(r.status).toBe(400);
      expect(r.json.errorMessage).toBe('Bad Request - Invalid CallBackURL');
    }
    expect(fake.refusedUrls).toEqual(['https://example.com/cb', 'http://localhost:1/cb', 'https://127.0.0.1/cb']);
    expect(fake.stk.size).toBe(0);
    expect(fake.deliveries).toEqual([]);
    expect(() => assertLoopbackUrl('https://example.com/x')).toThrow(/only http:\/\/127\.0\.0\.1/);
    expect(() => assertLoopbackUrl('http://localhost/x')).toThrow(/refuses/);
    expect(() => assertLoopbackUrl('http://127.0.0.1:9/x')).not.toThrow();
  });

  it.each([
    ['254708370001', 1, 'The balance is insufficient for the transaction.'],
    ['254708370032', 1032, 'Request cancelled by user'],
    ['254708370037', 1037, 'DS timeout user cannot be reached'],
    ['254708372001', 2001, 'The initiator information is invalid.'],
  ])('a phone ending %s ends with ResultCode %d, no CallbackMetadata', async (phone, code, desc) => {
    const r = await stkPush({ PhoneNumber: phone, PartyA: phone });
    const id = r.json.CheckoutRequestID;
    await fake.callbackDelivered(id);
    expect(callbacksFor(id)).toEqual([
      { Body: { stkCallback: { MerchantRequestID: r.json.MerchantRequestID, CheckoutRequestID: id, ResultCode: code, ResultDesc: desc } } },
    ]);
    expect(fake.stk.get(id)).toMatchObject({ resultCode: code, resultDesc: desc, receipt: null });
    const q = await stkQuery(id);
    expect(q.json).toMatchObject({ ResponseCode: '0', ResultCode: String(code), ResultDesc: desc });
  });

  it('a PayBill push whose PartyB is not the shortcode ends with 2028', async () => {
    const r = await stkPush({ PartyB: '600111' });
    await fake.callbackDelivered(r.json.CheckoutRequestID);
    expect(fake.stk.get(r.json.CheckoutRequestID)!.resultCode).toBe(2028);
  });

  it('keeps a phone ending 0009 pending: the query says "being processed", a second push cannot lock the subscriber', async () => {
    const phone = '254708370009';
    const r = await stkPush({ PhoneNumber: phone, PartyA: phone });
    const id = r.json.CheckoutRequestID;
    await sleep(60);
    expect(fake.stk.get(id)!.resultCode).toBeNull();
    expect(callbacksFor(id)).toEqual([]);

    const q = await stkQuery(id);
    expect(q.status).toBe(500);
    expect(q.json).toEqual({ requestId: id, errorCode: '500.001.1001', errorMessage: 'The transaction is being processed' });

    const again = await stkPush({ PhoneNumber: phone, PartyA: phone });
    expect(again.status).toBe(500);
    expect(again.json).toEqual(darajaError('500.001.1001', 'Unable to lock subscriber, a transaction is already in process for the current subscriber'));

    await fake.decideStk(id, 0);
    expect(callbacksFor(id)).toHaveLength(1);
    expect((await stkQuery(id)).json.ResultCode).toBe('0');
    await expect(fake.decideStk(id, 1032)).rejects.toThrow(/already decided/);
    expect((await stkPush({ PhoneNumber: phone, PartyA: phone })).status).toBe(200);
  });

  it('the query checks its Password and answers 400 for an unknown CheckoutRequestID', async () => {
    const unknown = await stkQuery('ws_CO_000000000000000000000000');
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual(darajaError('400.002.02', 'Bad Request - Invalid CheckoutRequestID'));
    const wrong = await stkQuery('ws_CO_000000000000000000000000', { Password: 'bm9wZQ==' });
    expect(wrong.status).toBe(500);
    expect(wrong.json.errorMessage).toBe('[MerchantValidate] - Wrong credentials');
  });

  it('sends each callback once; sendStkCallback re-sends it byte for byte', async () => {
    const r = await stkPush();
    const id = r.json.CheckoutRequestID;
    await fake.callbackDelivered(id);
    await sleep(100);
    const sent = receiver.received.filter((x) => x.body.includes(id));
    expect(sent).toHaveLength(1);
    expect(fake.deliveries.filter((d) => d.id === id)).toEqual([expect.objectContaining({ kind: 'stk', status: 200, error: null })]);

    expect(await fake.sendStkCallback(id)).toBe(200);
    const both = receiver.received.filter((x) => x.body.includes(id));
    expect(both).toHaveLength(2);
    expect(both[1].body).toBe(both[0].body);
  });

  it('dropCallbacks decides without calling back; callbackDelivered then times out', async () => {
    fake.dropCallbacks = true;
    const r = await stkPush();
    const id = r.json.CheckoutRequestID;
    await expect(fake.callbackDelivered(id, 150)).rejects.toThrow(/no callback delivered/);
    expect(fake.stk.get(id)!.resultCode).toBe(0);
    expect(callbacksFor(id)).toEqual([]);
    expect(await fake.sendStkCallback(id)).toBe(200);
    await fake.callbackDelivered(id);
    expect(callbacksFor(id)).toHaveLength(1);
  });

  it('records every request it receives', async () => {
    await stkPush();
    const push = fake.requests.find((x) => x.path === '/mpesa/stkpush/v1/processrequest')!;
    expect(push.method).toBe('POST');
    expect(push.headers.authorization).toMatch(/^Bearer /);
    expect(JSON.parse(push.body).AccountReference).toBe('INV-1');
  });
});

describe('B2C', () => {
  beforeEach(() => setup());

  it('accepts a payment and POSTs the documented result to ResultURL once', async () => {
    const body = b2cBody({ Amount: '150' });
    const r = await call('POST', '/mpesa/b2c/v3/paymentrequest', { auth: `Bearer ${await token()}`, body });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      ConversationID: expect.stringMatching(/^AG_\d{8}_[0-9a-f]{20}$/),
      OriginatorConversationID: body.OriginatorConversationID,
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
    const id = r.json.ConversationID;
    await fake.callbackDelivered(id);
    const b2cRecord = fake.b2c.get(id)!;
    expect(b2cRecord).toMatchObject({
      conversationId: id,
      originatorConversationId: body.OriginatorConversationID,
      resultCode: 0,
      transactionId: expect.any(String),
    });
    const results = callbacksFor(id);
    expect(results).toHaveLength(1);
    expect(receiver.received.find((x) => x.body.includes(id))!.path).toBe('/hooks/b2c-result');
    const result = results[0].Result;
    expect(result).toMatchObject({
      ResultType: 0,
      ResultCode: 0,
      ResultDesc: 'The service request is processed successfully.',
      OriginatorConversationID: body.OriginatorConversationID,
      ConversationID: id,
      TransactionID: b2cRecord.transactionId,
      ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: expect.any(String) } },
    });
    const params = Object.fromEntries(result.ResultParameters.ResultParameter.map((p: any) => [p.Key, p.Value]));
    expect(params).toMatchObject({
      TransactionAmount: 150,
      TransactionReceipt: b2cRecord.transactionId,
      ReceiverPartyPublicName: expect.stringMatching(/^254708374149 - /),
      TransactionCompletedDateTime: expect.stringMatching(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/),
      B2CRecipientIsRegisteredCustomer: 'Y',
    });
    await sleep(100);
    expect(callbacksFor(id)).toHaveLength(1);
    expect(await fake.sendB2cResult(id)).toBe(200);
    expect(callbacksFor(id)).toHaveLength(2);
  });

  it('refuses a repeated OriginatorConversationID with 500.002.1001 and pays once', async () => {
    const body = b2cBody();
    const auth = `Bearer ${await token()}`;
    const first = await call('POST', '/mpesa/b2c/v3/paymentrequest', { auth, body });
    expect(first.status).toBe(200);
    const again = await call('POST', '/mpesa/b2c/v3/paymentrequest', { auth, body: { ...body, Amount: 999 } });
    expect(again.status).toBe(500);
    expect(again.json).toEqual(darajaError('500.002.1001', 'Duplicate OriginatorConversationID.'));
    expect(fake.b2c.size).toBe(1);
    await fake.callbackDelivered(first.json.ConversationID);
    await sleep(50);
    expect(receiver.received.filter((x) => x.path === '/hooks/b2c-result')).toHaveLength(1);
  });

  it.each([
    ['InitiatorName', { InitiatorName: '' }],
    ['OriginatorConversationID', { OriginatorConversationID: undefined }],
    ['CommandID', { CommandID: 'BusinessPayBill' }],
    ['Amount', { Amount: 12.5 }],
    ['PartyA', { PartyA: 'abc' }],
    ['PartyB', { PartyB: '0708374149' }],
    ['PartyB', { PartyB: '254808374149' }],
    ['Remarks', { Remarks: 'x' }],
    ['ResultURL', { ResultURL: 'https://example.com/result' }],
    ['QueueTimeOutURL', { QueueTimeOutURL: 'nope' }],
  ])('rejects a bad %s with 400 400.002.02 (%j)', async (field, overrides) => {
    const r = await b2c(overrides);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(darajaError('400.002.02', `Bad Request - Invalid ${field}`));
    expect(fake.b2c.size).toBe(0);
  });

  it('a non-JSON Content-Type answers Invalid InitiatorName, as the FAQ says', async () => {
    const r = await call('POST', '/mpesa/b2c/v3/paymentrequest', {
      auth: `Bearer ${await token()}`,
      body: 'InitiatorName=testapi',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(r.json.errorMessage).toBe('Bad Request - Invalid InitiatorName');
  });

  it.each([
    [{ SecurityCredential: 'd3Jvbmc=' }, 2001, 'The initiator information is invalid.'],
    [{ InitiatorName: 'someone' }, 2001, 'The initiator information is invalid.'],
    [{ PartyA: '600000' }, 2028, 'The request is not permitted according to product assignment.'],
    [{ Amount: 9 }, 2, 'Declined due to limit rule'],
    [{ Amount: 250_001 }, 3, 'Declined due to limit rule: greater than the maximum transaction amount.'],
    [{ PartyB: '254708370001' }, 1, 'The balance is insufficient for the transaction.'],
    [{ PartyB: '254708378006' }, 8006, 'The security credential is locked'],
  ])('%j is accepted, then fails with ResultCode %d', async (overrides, code, desc) => {
    const r = await b2c(overrides);
    expect(r.status).toBe(200);
    const id = r.json.ConversationID;
    await fake.callbackDelivered(id);
    const [{ Result }] = callbacksFor(id);
    expect(Result).toMatchObject({ ResultType: 0, ResultCode: code, ResultDesc: desc, ConversationID: id, TransactionID: expect.any(String) });
    expect(Result.ResultParameters).toBeUndefined();
    expect(fake.b2c.get(id)).toMatchObject({ resultCode: code, resultDesc: desc });
  });

  it('keeps a PartyB ending 0009 pending until decideB2c', async () => {
    const r = await b2c({ PartyB: '254708370009' });
    const id = r.json.ConversationID;
    await sleep(60);
    expect(fake.b2c.get(id)).toMatchObject({ resultCode: null, transactionId: null });
    await expect(fake.sendB2cResult(id)).rejects.toThrow(/not decided/);
    await fake.decideB2c(id, 2040);
    expect(callbacksFor(id)[0].Result.ResultCode).toBe(2040);
    expect(fake.b2c.get(id)!.resultDesc).toMatch(/^Credit Party customer type/);
  });
});

describe('Transaction Status', () => {
  beforeEach(() => setup());

  const statusOf = (result: any) => Object.fromEntries((result.ResultParameters?.ResultParameter ?? []).map((p: any) => [p.Key, p.Value]));

  it('answers at once, then POSTs the queried B2C status (by OriginalConversationID or TransactionID)', async () => {
    const pay = await b2c({ Amount: 300 });
    await fake.callbackDelivered(pay.json.ConversationID);
    const paid = fake.b2c.get(pay.json.ConversationID)!;

    const r = await transactionStatus({ OriginalConversationID: paid.originatorConversationId });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      OriginatorConversationID: expect.any(String),
      ConversationID: expect.stringMatching(/^AG_/),
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
    await fake.callbackDelivered(r.json.ConversationID);
    const [{ Result }] = callbacksFor(r.json.ConversationID);
    expect(Result).toMatchObject({
      ResultType: 0,
      ResultCode: 0,
      ConversationID: r.json.ConversationID,
      OriginatorConversationID: r.json.OriginatorConversationID,
      ReferenceData: { ReferenceItem: { Key: 'Occasion', Value: 'check' } },
    });
    expect(statusOf(Result)).toMatchObject({
      TransactionStatus: 'Completed',
      ReceiptNo: paid.transactionId,
      Amount: '300',
      OriginatorConversationID: paid.originatorConversationId,
    });
    expect(fake.statusQueries.get(r.json.ConversationID)!.result).toEqual({ Result });

    const byReceipt = await transactionStatus({ TransactionID: paid.transactionId });
    await fake.callbackDelivered(byReceipt.json.ConversationID);
    expect(statusOf(callbacksFor(byReceipt.json.ConversationID)[0].Result).TransactionStatus).toBe('Completed');
  });

  it('reports a pending B2C as Pending (no receipt), a failed one as Failed, an unknown one as not found', async () => {
    const pending = await b2c({ PartyB: '254708370009' });
    const failed = await b2c({ PartyB: '254708370001' });
    await fake.callbackDelivered(failed.json.ConversationID);

    const q1 = await transactionStatus({ OriginalConversationID: fake.b2c.get(pending.json.ConversationID)!.originatorConversationId });
    await fake.callbackDelivered(q1.json.ConversationID);
    const p = statusOf(callbacksFor(q1.json.ConversationID)[0].Result);
    expect(p.TransactionStatus).toBe('Pending');
    expect(p.ReceiptNo).toBeUndefined();

    const q2 = await transactionStatus({ OriginalConversationID: fake.b2c.get(failed.json.ConversationID)!.originatorConversationId });
    await fake.callbackDelivered(q2.json.ConversationID);
    expect(statusOf(callbacksFor(q2.json.ConversationID)[0].Result).TransactionStatus).toBe('Failed');

    const q3 = await transactionStatus({ TransactionID: 'ZZZ0000001' });
    await fake.callbackDelivered(q3.json.ConversationID);
    expect(callbacksFor(q3.json.ConversationID)[0].Result).toMatchObject({ ResultCode: 'R000002', ResultDesc: 'The transaction cannot be found.' });
  });

  it('a wrong SecurityCredential is accepted, then answered with 2001', async () => {
    const r = await transactionStatus({ TransactionID: 'ZZZ0000001', SecurityCredential: 'bad' });
    expect(r.status).toBe(200);
    await fake.callbackDelivered(r.json.ConversationID);
    expect(callbacksFor(r.json.ConversationID)[0].Result).toMatchObject({ ResultCode: 2001, ResultDesc: 'The initiator information is invalid.' });
  });

  it('needs a TransactionID or an OriginalConversationID, CommandID TransactionStatusQuery and a known IdentifierType', async () => {
    expect((await transactionStatus()).json).toEqual(darajaError('400.002.02', 'Bad Request - Invalid TransactionID'));
    expect((await transactionStatus({ TransactionID: 'X', CommandID: 'Status' })).json.errorMessage).toBe('Bad Request - Invalid CommandID');
    expect((await transactionStatus({ TransactionID: 'X', IdentifierType: '9' })).json.errorMessage).toBe('Bad Request - Invalid IdentifierType');
    expect(fake.statusQueries.size).toBe(0);
  });

  it('finds an STK payment by its receipt', async () => {
    const push = await stkPush();
    await fake.callbackDelivered(push.json.CheckoutRequestID);
    const receipt = fake.stk.get(push.json.CheckoutRequestID)!.receipt;
    const r = await transactionStatus({ TransactionID: receipt, PartyA: fake.env().MPESA_SHORTCODE });
    await fake.callbackDelivered(r.json.ConversationID);
    expect(statusOf(callbacksFor(r.json.ConversationID)[0].Result)).toMatchObject({ TransactionStatus: 'Completed', ReceiptNo: receipt, Amount: '10' });
  });
});

describe('faults', () => {
  beforeEach(() => setup());

  it("'500' answers 500.003.1001 without accepting; 'accept-then-500' accepts, then answers the same", async () => {
    const auth = `Bearer ${await token()}`;
    fake.failNext('500', { path: '/mpesa/stkpush/' });
    const r1 = await call('POST', '/mpesa/stkpush/v1/processrequest', { auth, body: stkBody() });
    expect(r1.status).toBe(500);
    expect(r1.json).toEqual(darajaError('500.003.1001', 'Internal Server Error'));
    expect(fake.stk.size).toBe(0);

    fake.failNext('accept-then-500', { path: /stkpush\/v1/ });
    const r2 = await call('POST', '/mpesa/stkpush/v1/processrequest', { auth, body: stkBody() });
    expect(r2.status).toBe(500);
    expect(fake.stk.size).toBe(1);
    const [id] = fake.stk.keys();
    await fake.callbackDelivered(id);
  });

  it("'timeout' never answers and accepts nothing; 'accept-then-timeout' accepts and never answers", async () => {
    const auth = `Bearer ${await token()}`;
    fake.failNext('timeout');
    await expect(call('POST', '/mpesa/b2c/v3/paymentrequest', { auth, body: b2cBody(), timeoutMs: 300 })).rejects.toThrow();
    expect(fake.b2c.size).toBe(0);

    fake.failNext('accept-then-timeout', { path: '/mpesa/b2c' });
    const body = b2cBody();
    await expect(call('POST', '/mpesa/b2c/v3/paymentrequest', { auth, body, timeoutMs: 300 })).rejects.toThrow();
    expect(fake.b2c.size).toBe(1);
    const [b2cRecord] = fake.b2c.values();
    expect(b2cRecord.originatorConversationId).toBe(body.OriginatorConversationID);
    // Retrying with the same OriginatorConversationID is refused, as documented.
    expect((await call('POST', '/mpesa/b2c/v3/paymentrequest', { auth, body })).json.errorCode).toBe('500.002.1001');
  });

  it("'reset' drops the connection; '503' and `down` answer 503; count applies to that many requests", async () => {
    fake.failNext('reset', { path: '/oauth' });
    await expect(call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).rejects.toThrow();
    expect(fake.tokensIssued).toBe(0);

    fake.failNext('503', { count: 2 });
    expect((await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).status).toBe(503);
    expect((await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).status).toBe(503);
    expect((await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).status).toBe(200);

    fake.down = true;
    expect((await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).status).toBe(503);
    fake.down = false;
    expect((await call('GET', '/oauth/v1/generate?grant_type=client_credentials', { auth: basic() })).status).toBe(200);
    expect(fake.requests).toHaveLength(6);
  });

  it('a path that does not match leaves the fault for later', async () => {
    fake.failNext('500', { path: '/mpesa/b2c' });
    expect((await stkPush()).status).toBe(200);
    expect((await b2c()).status).toBe(500);
  });
});

describe('close', () => {
  it('closes at once with a held request, a pending decision and a callback to a receiver that hangs', async () => {
    fake = await MpesaFake.start({ decisionDelayMs: 10 });
    receiver = await startReceiver(() => 'hang');
    const auth = `Bearer ${await token()}`;
    await call('POST', '/mpesa/stkpush/v1/processrequest', { auth, body: stkBody() }); // its callback will hang
    fake.failNext('timeout');
    const held = call('POST', '/mpesa/stkpush/v1/processrequest', { auth, body: stkBody({ PhoneNumber: '254708370009', PartyA: '254708370009' }) }).catch(
      (e: Error) => e,
    );
    await sleep(50);
    const waiting = fake.callbackDelivered('nothing', 60_000).catch((e: Error) => e);
    const started = Date.now();
    await fake.close();
    expect(Date.now() - started).toBeLessThan(1000);
    // fetch's TypeError comes from another realm than jest's Error: compare by shape.
    expect(await held).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(await waiting).toEqual(expect.objectContaining({ message: 'MpesaFake closed' }));
  });
});
