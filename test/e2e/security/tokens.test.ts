import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { request } from '../../helpers/http';
import { GqlSocket, rawRequest } from '../../helpers/security';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';

/**
 * Token tampering against all three doors. Access tokens are HS256 JWTs (`typ:
 * at+jwt`, issuer, audience, sub = merchant id; src/modules/auth/access-tokens.ts).
 * Each altered credential must be refused the same way everywhere: REST 401
 * INVALID_TOKEN in the envelope, GraphQL over HTTP 401 with extensions.code
 * INVALID_TOKEN and no data, graphql-ws closed with 4403 before any ack. The
 * forger here is checked first: tokens it signs with the service's key are
 * accepted, so each refusal below is the service's check, not a broken forgery.
 */

const SIGNING_KEY = 'security-suite-signing-key-0123456789abcdefghij';
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** A JWT signed with HMAC (`hash`: sha256 for HS256 …) and `key`. */
function hmacJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: string | Buffer, hash = 'sha256'): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(hash, key).update(input).digest('base64url')}`;
}

/** Changes one character in the middle of a base64url segment (the last one may carry only padding bits). */
function flipMiddle(segment: string): string {
  const i = Math.floor(segment.length / 2);
  return segment.slice(0, i) + (segment[i] === 'A' ? 'B' : 'A') + segment.slice(i + 1);
}

type Door = 'rest' | 'graphql' | 'ws';

/** How a credential is presented at each door. */
interface Presented {
  /** HTTP headers (REST and GraphQL); an array sends that many header lines. Undefined: none. */
  authorization?: string | string[];
  /** Query string for the HTTP doors and the socket's URL. */
  query?: string;
  /** connection_init payload; by default `{ Authorization: authorization }`. */
  wsPayload?: unknown;
  /** Headers on the socket's HTTP upgrade request. */
  wsHeaders?: Record<string, string>;
}

describe('token tampering: every altered credential is 401 INVALID_TOKEN on REST and GraphQL, and 4403 on graphql-ws', () => {
  let app: TestApp;
  let A: { id: string; token: string; refresh: string };
  let B: { id: string; token: string };
  let header: Record<string, unknown>;
  let claims: Record<string, any>;
  let parts: string[];

  beforeAll(async () => {
    app = await createTestApp({ env: { TOKEN_SIGNING_KEY: SIGNING_KEY } });
    const a = await app.createMerchant('Token A');
    const b = await app.createMerchant('Token B');
    const ta = await app.token(a);
    A = { id: a.merchant.id, token: ta.accessToken, refresh: ta.refreshToken };
    B = { id: b.merchant.id, token: (await app.token(b)).accessToken };
    parts = A.token.split('.');
    header = decode(parts[0]!);
    claims = decode(parts[1]!);
  });
  afterAll(() => app?.close());

  /** What each door answers for a credential: the merchant it authenticated as, or how it refused. */
  async function atDoor(door: Door, p: Presented): Promise<{ as?: string; refused?: string }> {
    const headers: Record<string, string | string[]> = p.authorization === undefined ? {} : { authorization: p.authorization };
    const qs = p.query ?? '';
    if (door === 'rest') {
      const res = await rawRequest(app.url, 'GET', `/v1/merchant${qs}`, { headers });
      if (res.status === 200) return { as: res.body.data.merchant_id };
      const wellFormed = res.body?.status === 'error' && /^Bearer/.test(String(res.headers['www-authenticate'])) ? '' : ' (malformed refusal)';
      return { refused: `${res.status} ${res.body?.code}${wellFormed}` };
    }
    if (door === 'graphql') {
      const res = await rawRequest(app.url, 'POST', `/graphql${qs}`, {
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ merchant { id } }' }),
      });
      if (res.status === 200 && res.body?.data?.merchant) return { as: res.body.data.merchant.id };
      const wellFormed = res.body?.data == null && res.body?.errors?.length === 1 ? '' : ' (malformed refusal)';
      return { refused: `${res.status} ${res.body?.errors?.[0]?.extensions?.code}${wellFormed}` };
    }
    const payload = 'wsPayload' in p ? p.wsPayload : { Authorization: p.authorization };
    const { socket, ack, closeCode } = await GqlSocket.open(app, payload, { query: qs, headers: p.wsHeaders });
    try {
      if (!ack) return { refused: `close ${closeCode}` };
      const result = await socket.run('{ merchant { id } }').catch(() => undefined);
      if (!result) return { refused: `closed after ack ${socket.closeCode}` };
      return result.data?.merchant ? { as: result.data.merchant.id } : { refused: `op ${result.errors?.[0]?.extensions?.code}` };
    } finally {
      await socket.close();
    }
  }

  const REFUSED = { rest: { refused: '401 INVALID_TOKEN' }, graphql: { refused: '401 INVALID_TOKEN' }, ws: { refused: 'close 4403' } };
  const authenticatedAs = (id: string) => ({ rest: { as: id }, graphql: { as: id }, ws: { as: id } });

  async function allDoors(p: Presented) {
    return { rest: await atDoor('rest', p), graphql: await atDoor('graphql', p), ws: await atDoor('ws', p) };
  }
  const bearer = (token: string): Presented => ({ authorization: `Bearer ${token}` });

  it('controls: the real tokens, and tokens this forger signs with the service’s key, authenticate (so the refusals below are meaningful)', async () => {
    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    expect(claims).toMatchObject({ sub: A.id, iss: expect.any(String), aud: expect.any(String), exp: claims.iat + 3600 });
    expect(await allDoors(bearer(A.token))).toEqual(authenticatedAs(A.id));
    expect(await allDoors(bearer(B.token))).toEqual(authenticatedAs(B.id));
    expect(await allDoors(bearer(hmacJwt(header, claims, SIGNING_KEY)))).toEqual(authenticatedAs(A.id));
    // With the key, B's id in `sub` is B: so `sub` is what the service trusts, and only the signature protects it.
    expect(await allDoors(bearer(hmacJwt(header, { ...claims, sub: B.id }, SIGNING_KEY)))).toEqual(authenticatedAs(B.id));
  });

  const cases = (): Array<[string, Presented]> => {
    const [h, p, s] = parts as [string, string, string];
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsaJwk = rsa.publicKey.export({ format: 'jwk' });
    const rsInput = `${b64({ alg: 'RS256', typ: 'at+jwt', jwk: rsaJwk })}.${p}`;
    const rsSigned = `${rsInput}.${sign('RSA-SHA256', Buffer.from(rsInput), rsa.privateKey).toString('base64url')}`;
    const pem = rsa.publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const none = (alg: string, payload = claims, sig = '') => `${b64({ alg, typ: 'at+jwt' })}.${b64(payload)}.${sig}`;
    const later = claims.exp + 365 * 24 * 3600;
    return [
      // The signature.
      ['signature altered', bearer(`${h}.${p}.${flipMiddle(s)}`)],
      ['A’s header and payload with B’s signature', bearer(`${h}.${p}.${B.token.split('.')[2]}`)],
      ['signature removed (header.payload.)', bearer(`${h}.${p}.`)],
      // The payload, re-encoded without re-signing.
      ['payload: sub swapped to B', bearer(`${h}.${b64({ ...claims, sub: B.id })}.${s}`)],
      ['payload: exp extended by a year', bearer(`${h}.${b64({ ...claims, exp: later })}.${s}`)],
      ['payload: sub swapped and exp extended', bearer(`${h}.${b64({ ...claims, sub: B.id, exp: later })}.${s}`)],
      // The algorithm.
      ['alg "none", empty signature', bearer(none('none'))],
      ['alg "none", sub swapped to B', bearer(none('none', { ...claims, sub: B.id }))],
      ['alg "None"', bearer(none('None'))],
      ['alg "NONE"', bearer(none('NONE'))],
      ['alg "none" keeping the original signature', bearer(none('none', claims, s))],
      ['alg HS512 signed with the service’s key', bearer(hmacJwt({ alg: 'HS512', typ: 'at+jwt' }, claims, SIGNING_KEY, 'sha512'))],
      ['alg HS384 signed with the service’s key', bearer(hmacJwt({ alg: 'HS384', typ: 'at+jwt' }, claims, SIGNING_KEY, 'sha384'))],
      ['alg RS256 header on the original HS256 signature', bearer(`${b64({ alg: 'RS256', typ: 'at+jwt' })}.${p}.${s}`)],
      ['alg RS256 signed by the attacker’s RSA key, public key embedded (jwk)', bearer(rsSigned)],
      ['HS256 keyed with an RSA public key (PEM) — key confusion', bearer(hmacJwt(header, { ...claims, sub: B.id }, pem))],
      ['HS256 signed with another key, valid claims', bearer(hmacJwt(header, claims, 'another-signing-key-0123456789abcdefghijklmnop'))],
      ['HS256 with an empty key and a kid pointing elsewhere', bearer(hmacJwt({ ...header, kid: '../../../dev/null' }, claims, ''))],
      // Claims, correctly signed (the key is not enough: the token must be an access token of this service).
      ['typ "JWT" instead of at+jwt', bearer(hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, SIGNING_KEY))],
      ['no typ', bearer(hmacJwt({ alg: 'HS256' }, claims, SIGNING_KEY))],
      ['another issuer', bearer(hmacJwt(header, { ...claims, iss: 'someone-else' }, SIGNING_KEY))],
      ['another audience', bearer(hmacJwt(header, { ...claims, aud: 'someone-else' }, SIGNING_KEY))],
      ['no exp', bearer(hmacJwt(header, { ...claims, exp: undefined }, SIGNING_KEY))],
      ['no sub', bearer(hmacJwt(header, { ...claims, sub: undefined }, SIGNING_KEY))],
      ['an unknown critical header', bearer(hmacJwt({ ...header, crit: ['x-unknown'], 'x-unknown': 1 }, claims, SIGNING_KEY))],
      // Other credentials in its place.
      ['A’s refresh token as an access token', bearer(A.refresh)],
      ['the admin API key as a merchant token', bearer(TEST_ADMIN_KEY)],
      // Truncated and empty.
      ['truncated by one character', bearer(A.token.slice(0, -1))],
      ['truncated to half', bearer(A.token.slice(0, Math.floor(A.token.length / 2)))],
      ['header.payload only', bearer(`${h}.${p}`)],
      ['header only', bearer(h)],
      ['no Authorization header', { authorization: undefined, wsPayload: undefined }],
      ['an empty Authorization header', { authorization: '' }],
      ['"Bearer" alone', { authorization: 'Bearer' }],
      ['"Bearer " and spaces', { authorization: 'Bearer   ' }],
      // Whitespace and framing that change what the token is.
      ['a space inside the token', { authorization: `Bearer ${A.token.slice(0, 40)} ${A.token.slice(40)}` }],
      ['two tokens after Bearer', { authorization: `Bearer ${A.token} ${B.token}` }],
      ['two credentials joined by a comma (one merged header)', { authorization: `Bearer ${A.token}, Bearer ${B.token}` }],
      ['"Bearer:" with a colon', { authorization: `Bearer: ${A.token}` }],
      ['no space after Bearer', { authorization: `Bearer${A.token}` }],
      ['another scheme (Token)', { authorization: `Token ${A.token}` }],
      ['another scheme (Basic)', { authorization: `Basic ${A.token}` }],
      ['the bare token without a scheme', { authorization: A.token }],
      // Elsewhere than the Authorization header.
      ['in the query string (access_token)', { query: `?access_token=${A.token}`, wsPayload: undefined }],
      ['in the query string (token, authorization)', { query: `?token=${A.token}&authorization=${encodeURIComponent(`Bearer ${A.token}`)}`, wsPayload: {} }],
      [
        'socket: on the upgrade request’s Authorization header instead of connection_init',
        { authorization: undefined, wsPayload: {}, wsHeaders: { authorization: `Bearer ${A.token}` } },
      ],
    ];
  };

  it('every altered, truncated, misplaced or foreign credential is refused at every door', async () => {
    const all = cases();
    const outcomes: Record<string, unknown> = {};
    for (const [name, presented] of all) outcomes[name] = await allDoors(presented);
    expect(outcomes).toEqual(Object.fromEntries(all.map(([name]) => [name, REFUSED])));
    expect(all.length).toBeGreaterThanOrEqual(40);
  });

  it('two Authorization headers (or both spellings in connection_init) are refused, whichever is valid', async () => {
    const garbage = 'Bearer not-a-token';
    const twice: Array<[string, Presented]> = [
      [
        'A’s token, then B’s',
        { authorization: [`Bearer ${A.token}`, `Bearer ${B.token}`], wsPayload: { Authorization: `Bearer ${A.token}`, authorization: `Bearer ${B.token}` } },
      ],
      ['A’s token, then garbage', { authorization: [`Bearer ${A.token}`, garbage], wsPayload: { Authorization: `Bearer ${A.token}`, authorization: garbage } }],
      ['garbage, then A’s token', { authorization: [garbage, `Bearer ${A.token}`], wsPayload: { Authorization: garbage, authorization: `Bearer ${A.token}` } }],
    ];
    const outcomes: Record<string, unknown> = {};
    for (const [name, presented] of twice) outcomes[name] = await allDoors(presented);
    expect(outcomes).toEqual(Object.fromEntries(twice.map(([name]) => [name, REFUSED])));
  });

  it('forms RFC 7235/6750 make equivalent (scheme in any case, 1*SP, trailing OWS) authenticate as the token’s own merchant, never another', async () => {
    // The auth-scheme is case-insensitive (RFC 7235 §2.1), `Bearer 1*SP b64token` (RFC 6750 §2.1), and
    // HTTP strips trailing whitespace from a field value: these are the same credential, not a tampered one.
    for (const authorization of [`bearer ${A.token}`, `BEARER ${A.token}`, `Bearer  ${A.token}`, `Bearer ${A.token} `]) {
      expect([authorization.slice(0, 8), await allDoors({ authorization })]).toEqual([authorization.slice(0, 8), authenticatedAs(A.id)]);
    }
  });

  it('token times, by the app’s clock: signed with the key, a lifetime over the issued 3600 s or an iat over 60 s ahead is refused at every door', async () => {
    const now = Math.floor(app.clock.now().getTime() / 1000);
    const at = (iat: number, exp: number) => bearer(hmacJwt(header, { ...claims, iat, exp }, SIGNING_KEY));
    const refused: Array<[string, Presented]> = [
      ['iat a day ahead, the usual hour after it', at(now + 86400, now + 86400 + 3600)],
      ['iat 61 s ahead', at(now + 61, now + 61 + 3600)],
      ['exp ten years ahead', at(now, now + 10 * 365 * 86400)],
      ['a lifetime of 3601 s', at(now, now + 3601)],
      ['issued long ago, exp ten years ahead', at(now - 30 * 86400, now + 10 * 365 * 86400)],
      ['exp equal to iat (no lifetime), both ahead', at(now + 30, now + 30)],
    ];
    const outcomes: Record<string, unknown> = {};
    for (const [name, presented] of refused) outcomes[name] = await allDoors(presented);
    expect(outcomes).toEqual(Object.fromEntries(refused.map(([name]) => [name, REFUSED])));
    // The edges are tokens this service could have issued (or a clock 60 s behind the issuer's): accepted.
    expect(await allDoors(at(now + 60, now + 60 + 3600))).toEqual(authenticatedAs(A.id));
    expect(await allDoors(at(now - 3599, now + 1))).toEqual(authenticatedAs(A.id));
  });

  it('a revoked token is refused at every door', async () => {
    const merchant = await app.createMerchant('Revoked');
    const { accessToken, refreshToken } = await app.token(merchant);
    expect(await allDoors(bearer(accessToken))).toEqual(authenticatedAs(merchant.merchant.id));
    expect((await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: refreshToken } })).status).toBe(200);
    expect(await allDoors(bearer(accessToken))).toEqual(REFUSED);
  });

  // Last: it moves the app's clock past every token issued so far.
  it('expiry, by the app’s clock: valid up to 1 ms before exp, refused at exp (a token seen before, and one never seen), and an open socket’s next operation fails', async () => {
    const merchant = await app.createMerchant('Expiring');
    const seen = (await app.token(merchant)).accessToken;
    const lastMinute = (await app.token(merchant)).accessToken;
    const neverSeen = (await app.token(merchant)).accessToken;
    const exp = decode(seen.split('.')[1]!).exp as number;
    for (const t of [lastMinute, neverSeen]) expect(decode(t.split('.')[1]!).exp).toBe(exp);
    expect(await allDoors(bearer(seen))).toEqual(authenticatedAs(merchant.merchant.id));
    const socket = await GqlSocket.connect(app, seen);
    try {
      // A minute before: every door (a socket opened now is given the minute, in real time, by the server's timer).
      app.clock.set(new Date(exp * 1000 - 60_000));
      expect(await allDoors(bearer(seen))).toEqual(authenticatedAs(merchant.merchant.id));
      expect(await allDoors(bearer(lastMinute))).toEqual(authenticatedAs(merchant.merchant.id));
      expect((await socket.run('{ merchant { id } }')).data).toEqual({ merchant: { id: merchant.merchant.id } });
      // 1 ms before: the HTTP doors (a socket opened now would be closed by that timer 1 ms later).
      app.clock.set(new Date(exp * 1000 - 1));
      for (const door of ['rest', 'graphql'] as const) {
        expect([door, await atDoor(door, bearer(seen)), await atDoor(door, bearer(lastMinute))]).toEqual([
          door,
          { as: merchant.merchant.id },
          { as: merchant.merchant.id },
        ]);
      }

      app.clock.set(new Date(exp * 1000));
      expect(await allDoors(bearer(seen))).toEqual(REFUSED);
      expect(await allDoors(bearer(lastMinute))).toEqual(REFUSED);
      expect(await allDoors(bearer(neverSeen))).toEqual(REFUSED);
      // Tampering cannot bring it back: exp extended, not re-signed.
      const [h, p, s] = neverSeen.split('.') as [string, string, string];
      expect(await allDoors(bearer(`${h}.${b64({ ...decode(p), exp: exp + 3600 })}.${s}`))).toEqual(REFUSED);
      // The socket opened before expiry serves nothing more: it is closed with 4403, or its next operation is INVALID_TOKEN.
      const late = await socket.run('{ merchant { id } }').catch(() => undefined);
      expect(late?.data ?? null).toBeNull();
      expect(socket.closeCode === null ? late?.errors?.[0]?.extensions?.code : `closed ${socket.closeCode}`).toMatch(/^(INVALID_TOKEN|closed 4403)$/);
    } finally {
      await socket.close();
    }
    // A token issued now works: the refusals were about expiry.
    expect(await allDoors(bearer((await app.token(merchant)).accessToken))).toEqual(authenticatedAs(merchant.merchant.id));
  });
});
