import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../../config';
import { ERROR_HTTP_STATUS, type ErrorCode } from '../../../shared/errors';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER, idempotencyOfRoute } from '../idempotency';
import { componentName, ERROR_ENVELOPE, responseComponents } from './components';
import { requestJsonSchema, type JsonSchema } from './json-schema';
import { TAGS, type OperationSpec } from './operation';

export type OpenApiDocument = JsonSchema & { openapi: '3.1.0'; paths: Record<string, Record<string, JsonSchema>> };

/** When each code is answered, whatever the route (docs/api.md, Errors). A route's own `errors` say more. */
const WHEN: Record<ErrorCode, string> = {
  INVALID_REQUEST: 'missing or invalid parameters (`details` names each field), malformed JSON, an unsupported content type, or a body over the size limit',
  INVALID_TOKEN: 'the access token is missing, malformed, expired or revoked',
  INVALID_CLIENT: 'wrong client credentials',
  INSUFFICIENT_FUNDS:
    'the available balance does not cover the amount and its fee (nothing was written or sent); `details` says the shortfall: available, needed, missing',
  KYC_REQUIRED: 'the customer is not KYC-approved',
  FORBIDDEN: 'your role, or your API key’s, does not allow this (docs/access.md)',
  NOT_FOUND: 'not found (another merchant’s resources look exactly like missing ones)',
  DUPLICATE_REQUEST: 'already used',
  INVALID_STATE: 'not allowed in the object’s current state',
  RATE_LIMITED: 'too many requests (see Retry-After)',
  SERVER_ERROR: 'an unexpected failure: a generic message, with no internals',
  ROUTE_UNAVAILABLE: 'no provider serves this route (country, channel, network, direction) here; nothing was written or sent',
  PROVIDER_UNAVAILABLE: 'every provider of this route is failing right now (nothing was written or sent); try again shortly',
  BENEFICIARY_NAME_MISMATCH: 'the account is held in another name than beneficiary_name (CONTRACT §6b); nothing was written or sent',
};

/** Each kind of access: who may call, and what a caller without it gets. */
const ACCESS: Record<OperationSpec['access'], { security: JsonSchema[]; errors: Partial<Record<ErrorCode, string>> }> = {
  public: { security: [], errors: {} },
  client: { security: [{}, { clientBasic: [] }], errors: { RATE_LIMITED: 'too many attempts from this client_id or this address (see Retry-After)' } },
  bearer: {
    security: [{ oauth2: [] }, { bearerToken: [] }],
    errors: {
      INVALID_TOKEN: WHEN.INVALID_TOKEN,
      FORBIDDEN: WHEN.FORBIDDEN,
      RATE_LIMITED: 'the merchant’s request budget is spent (see Retry-After and RateLimit-*)',
    },
  },
  admin: {
    security: [{ adminApiKey: [] }],
    errors: { INVALID_TOKEN: 'a valid admin API key is required', RATE_LIMITED: 'too many admin requests from this address (see Retry-After)' },
  },
};

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  oauth2: {
    type: 'oauth2',
    description:
      'Client credentials grant at POST /v1/oauth/token (client_id and client_secret in the body, or HTTP Basic). ' +
      'The answer is wrapped in the service’s envelope: the token is at `data.access_token`. It lasts 3600 s; refresh with grant_type=refresh_token.',
    flows: { clientCredentials: { tokenUrl: '/v1/oauth/token', refreshUrl: '/v1/oauth/token', scopes: {} } },
  },
  bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /v1/oauth/token, as `Authorization: Bearer …`.' },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'OAuth client authentication: client_id and client_secret as HTTP Basic (RFC 6749 §2.3.1), instead of body parameters.',
  },
  adminApiKey: { type: 'http', scheme: 'bearer', description: 'The service’s ADMIN_API_KEY, as `Authorization: Bearer …`.' },
};

const DESCRIPTION = [
  'Cross-border collections and transfers (bank transfer and mobile money, 22 countries) and domestic card payments.',
  '',
  '- **Envelopes.** Success: `{"status":"success","message":…,"data":…}`, with `meta` beside a list. Error: `{"status":"error","code":…,"message":…,"details"?:[{field,issue}]}` (a 402’s detail also says the shortfall: `currency`, `available`, `needed`, `missing`); the code fixes the HTTP status.',
  '- **Money.** Send amounts as decimal strings (`"1500.00"`; a JSON number is accepted). Answers carry them as exact JSON numbers, within the currency’s minor-unit decimals.',
  '- **Auth.** Get a token at POST /v1/oauth/token and send it as `Authorization: Bearer …`. Tokens last 3600 s.',
  '- **Request ids.** Every answer has an `x-request-id` header; send your own (1–128 of letters, digits, `. _ : -`) to follow a request.',
  `- **Idempotency.** The POSTs that create something take an \`${IDEMPOTENCY_KEY_HEADER}\` header (see each operation): a retry with the same key and request within 24 h gets the first answer again, with \`${REPLAYED_HEADER}: true\`.`,
].join('\n');

/** The Idempotency-Key header, on the operations that accept it (src/transport/rest/idempotency.ts). */
const IDEMPOTENCY_PARAMETER: JsonSchema = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Your key for this request (1–255 printable ASCII characters; a UUID is fine), scoped to your merchant. The same key with the same request ' +
    `(method, path, JSON body) within 24 h replays the first answer, status and body, with \`${REPLAYED_HEADER}: true\`, and executes nothing. ` +
    'The same key with another request is 400; while the first request runs, another with its key is 409 `INVALID_STATE` with `Retry-After: 1`. ' +
    'Kept answers: those of a request that began to execute (2xx, and 4xx other than 400). A 400 `INVALID_REQUEST` or a 5xx is not kept: retry with the same key.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

/** A registered route's description, with its method and path (Fastify's `:param` form, `/v1/…`). */
type RouteOperation = OperationSpec & { method: string; path: string };

const acceptsIdempotencyKey = (op: RouteOperation) => {
  const idempotency = idempotencyOfRoute(op.method, op.path);
  return idempotency !== undefined && 'accepted' in idempotency;
};

/** What Idempotency-Key adds to an operation's errors. */
function idempotencyErrors(op: RouteOperation): Partial<Record<ErrorCode, string>> {
  const idempotency = idempotencyOfRoute(op.method, op.path);
  if (!idempotency) return {};
  if ('refused' in idempotency) {
    return {
      INVALID_REQUEST: `an \`${IDEMPOTENCY_KEY_HEADER}\` header was sent: not accepted here, since ${idempotency.refused}, and a secret is shown only once`,
    };
  }
  return {
    INVALID_REQUEST: `\`${IDEMPOTENCY_KEY_HEADER}\` malformed, or already used with a different request`,
    INVALID_STATE: `a request with this \`${IDEMPOTENCY_KEY_HEADER}\` is still in progress (retry after \`Retry-After\` seconds)`,
  };
}

const ENVIRONMENT: Record<Config['env'], string> = {
  sandbox: 'This document describes the **sandbox**. Operations with `x-sandbox-only: true` (tag Sandbox) exist only there.',
  production: 'This document describes **production**. The sandbox has a few more operations (simulation, the 3-D Secure test page).',
};

/** The service's version, from the nearest package.json above this file (src/ under ts-jest, dist/src/ once built). */
function serviceVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Path parameters and the Idempotency-Key header as @fastify/swagger takes them: JSON Schemas of objects. */
function paramsSchema(op: RouteOperation): JsonSchema | undefined {
  if (!op.params) return undefined;
  const properties = Object.fromEntries(Object.entries(op.params).map(([name, description]) => [name, { type: 'string', description }]));
  return { type: 'object', properties, required: Object.keys(op.params) };
}

function headersSchema(op: RouteOperation): JsonSchema | undefined {
  if (!acceptsIdempotencyKey(op)) return undefined;
  const { name, description, schema } = IDEMPOTENCY_PARAMETER as { name: string; description: string; schema: JsonSchema };
  return { type: 'object', properties: { [name]: { ...schema, description } } };
}

/** The query string: the service's schema, with the route's field notes. */
function querySchema(op: RouteOperation): JsonSchema | undefined {
  if (!op.query) return undefined;
  const query = requestJsonSchema(op.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  for (const name of Object.keys(op.fields ?? {})) {
    if (!query.properties?.[name]) throw new Error(`${op.operationId}: fields.${name} is not a query parameter`);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, generated] of Object.entries(query.properties ?? {})) {
    const doc = op.fields?.[name];
    const { description, ...schema } = doc?.schema ?? generated;
    const text = [doc?.description, description].filter(Boolean).join('. ');
    properties[name] = { ...schema, ...(text ? { description: text } : {}) };
    if (doc?.required || (query.required ?? []).includes(name)) required.push(name);
  }
  return { type: 'object', properties, required };
}

/** The body's schema for components, with the route's field notes. */
function bodySchema(op: RouteOperation): JsonSchema {
  const json = requestJsonSchema(op.body!.schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  for (const [name, doc] of Object.entries(op.fields ?? {})) {
    const property = json.properties?.[name];
    if (!property) throw new Error(`${op.operationId}: fields.${name} is not a field of ${op.body!.name}`);
    if (doc.schema) json.properties![name] = { ...doc.schema };
    const notes = [doc.description, property.description].filter(Boolean).join('. ');
    if (notes) json.properties![name]!.description = notes;
  }
  return json;
}

function errorExample(op: RouteOperation, code: ErrorCode, when: string): JsonSchema {
  const message = `${when.charAt(0).toUpperCase()}${when.slice(1)}`.split(';')[0]!;
  if (code !== 'INVALID_REQUEST') return { status: 'error', code, message };
  const input = op.body?.schema ?? op.query;
  const field = input ? (requestJsonSchema(input).required as string[] | undefined)?.[0] : undefined;
  return field
    ? { status: 'error', code, message: `Invalid request: ${field} is required`, details: [{ field, issue: 'is required' }] }
    : { status: 'error', code, message: 'Invalid request' };
}

function errorResponses(op: RouteOperation): Record<string, JsonSchema> {
  const errors: Partial<Record<ErrorCode, string>> = { ...ACCESS[op.access].errors };
  if (op.body || op.query || op.params) errors.INVALID_REQUEST = WHEN.INVALID_REQUEST;
  for (const [code, when] of Object.entries(op.errors ?? {}) as Array<[ErrorCode, string]>) {
    errors[code] = code === 'INVALID_REQUEST' && errors.INVALID_REQUEST ? `${WHEN.INVALID_REQUEST}; ${when}` : when;
  }
  for (const [code, when] of Object.entries(idempotencyErrors(op)) as Array<[ErrorCode, string]>) {
    errors[code] = errors[code] ? `${errors[code]}; ${when}` : when;
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(errors) as ErrorCode[]) byStatus.set(ERROR_HTTP_STATUS[code], [...(byStatus.get(ERROR_HTTP_STATUS[code]) ?? []), code]);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${errors[code]}`).join('; '),
      content: {
        'application/json': {
          schema: { allOf: [ref('Error'), { properties: { code: { enum: codes } } }] },
          // Named examples, one a code: generated ones would show the first code of the whole list.
          examples: Object.fromEntries(codes.map((code) => [code, { value: errorExample(op, code, errors[code]!) }])),
        },
      },
    };
  }
  return responses;
}

function successResponse(op: RouteOperation): Record<string, JsonSchema> {
  const ok = op.ok!;
  const meta = ok.list === 'page' ? 'PageMeta' : ok.list === 'count' ? 'CountMeta' : undefined;
  const data = ok.data ? ref(componentName(ok.data)) : { type: 'object' };
  const envelope: JsonSchema = {
    type: 'object',
    required: ['status', 'message', 'data', ...(meta ? ['meta'] : [])],
    properties: {
      status: { const: 'success' },
      message: { type: 'string', examples: [ok.message] },
      data: ok.list ? { type: 'array', items: data } : data,
      ...(meta ? { meta: ref(meta) } : {}),
    },
  };
  const headers: Record<string, JsonSchema> = {
    ...(ok.noStore ? { 'Cache-Control': { description: 'Never cached', schema: { const: 'no-store' } } } : {}),
    ...(acceptsIdempotencyKey(op)
      ? {
          [REPLAYED_HEADER]: {
            description: `\`true\` when this is the replayed answer to an earlier request with the same \`${IDEMPOTENCY_KEY_HEADER}\``,
            schema: { const: 'true' },
          },
        }
      : {}),
  };
  return {
    [String(ok.status ?? 200)]: {
      description: ok.message,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { 'application/json': { schema: envelope } },
    },
  };
}

/**
 * An OpenAPI response object as @fastify/swagger takes one: a header is a JSON Schema with its
 * description, and an answer without a body says `type: 'null'`.
 */
function swaggerResponse({ headers, content, ...response }: JsonSchema): JsonSchema {
  return {
    ...response,
    ...(headers
      ? {
          headers: Object.fromEntries(
            Object.entries(headers as Record<string, { description?: string; schema: JsonSchema }>).map(([name, h]) => [
              name,
              { ...h.schema, ...(h.description ? { description: h.description } : {}) },
            ]),
          ),
        }
      : {}),
    ...(content ? { content } : { type: 'null' }),
  };
}

/** The @fastify/swagger options of this layer, as this configuration registers it (index.ts). */
export function openApiOptions(config: Pick<Config, 'env' | 'adminApiKey'>): FastifyDynamicSwaggerOptions {
  // What each route adds to the components and what @fastify/swagger's route schema cannot say
  // (a request body's example, a body as written, a shared response), by operationId, for transformObject.
  const bodies: Record<string, JsonSchema> = {};
  const finish = new Map<string, { example?: JsonSchema; requestBody?: JsonSchema; serverError?: true }>();

  /** One registered route → the route schema @fastify/swagger turns into its operation. */
  const transform: FastifyDynamicSwaggerOptions['transform'] = ({ schema, url, route }) => {
    if ((schema as { hide?: boolean } | undefined)?.hide) return { schema, url };
    const spec = (route.config as { operation?: OperationSpec } | undefined)?.operation;
    if (!spec || typeof route.method !== 'string') {
      throw new Error(
        `${String(route.method)} ${url}: a /v1 route needs its description (one method, and the options of operation(…) from openapi/operation.ts)`,
      );
    }
    const op: RouteOperation = { ...spec, method: route.method, path: url };
    const out: Record<string, unknown> = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description || op.sandboxOnly ? { description: [op.sandboxOnly ? '**Sandbox only.**' : '', op.description ?? ''].filter(Boolean).join(' ') } : {}),
      security: ACCESS[op.access].security,
    };
    const params = paramsSchema(op);
    const headers = headersSchema(op);
    const query = querySchema(op);
    if (params) out.params = params;
    if (headers) out.headers = headers;
    if (query) out.querystring = query;
    const extra: { example?: JsonSchema; requestBody?: JsonSchema; serverError?: true } = {};
    if (op.body) {
      bodies[op.body.name] = bodySchema(op);
      out.body = ref(op.body.name);
      out.consumes = ['application/json', ...(op.body.form ? ['application/x-www-form-urlencoded'] : [])];
      extra.example = op.body.example;
    }
    if (op.raw?.requestBody) extra.requestBody = op.raw.requestBody;
    const responses = op.raw ? { ...op.raw.responses, ...(op.raw.withErrors ? errorResponses(op) : {}) } : { ...successResponse(op), ...errorResponses(op) };
    out.response = Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, swaggerResponse(response)]));
    if ((!op.raw || op.raw.withErrors) && !responses['500']) extra.serverError = true;
    if (op.sandboxOnly) out['x-sandbox-only'] = true;
    if (op.permission) out['x-permission'] = op.permission;
    finish.set(op.operationId, extra);
    return { schema: out, url };
  };

  const transformObject: FastifyDynamicSwaggerOptions['transformObject'] = (documentObject) => {
    const generated = (documentObject as { openapiObject: OpenApiDocument }).openapiObject;
    const used = new Set<string>();
    for (const item of Object.values(generated.paths)) {
      for (const operation of Object.values(item) as Array<JsonSchema & { operationId: string; tags: string[] }>) {
        operation.tags.forEach((tag) => used.add(tag));
        const extra = finish.get(operation.operationId) ?? {};
        // Path parameters first, then headers, then the query: the order a reader meets them in the URL.
        const order = ['path', 'header', 'query'];
        if (Array.isArray(operation.parameters)) {
          (operation.parameters as Array<{ in: string }>).sort((a, b) => order.indexOf(a.in) - order.indexOf(b.in));
        }
        const requestBody = operation.requestBody as { content: Record<string, JsonSchema> } | undefined;
        if (requestBody && extra.example) {
          requestBody.content['application/json'] = { ...requestBody.content['application/json'], example: extra.example };
        }
        if (extra.requestBody) operation.requestBody = extra.requestBody;
        if (extra.serverError) (operation.responses as JsonSchema)['500'] = { $ref: '#/components/responses/ServerError' };
      }
    }
    const document: OpenApiDocument = {
      openapi: '3.1.0',
      // OpenAPI 3.1's own dialect: JSON Schema draft 2020-12 plus the OpenAPI vocabulary (discriminator). Said
      // explicitly; it is the one dialect Swagger UI (and most tools) support without a warning.
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
      info: generated.info as JsonSchema,
      servers: generated.servers as JsonSchema[],
      tags: Object.entries(TAGS)
        .filter(([name]) => used.has(name))
        .map(([name, description]) => ({ name, description, ...(name === 'Sandbox' ? { 'x-sandbox-only': true } : {}) })),
      paths: generated.paths,
      components: {
        schemas: { ...responseComponents(), Error: ERROR_ENVELOPE, ...bodies },
        responses: {
          ServerError: {
            description: `\`SERVER_ERROR\`: ${WHEN.SERVER_ERROR}`,
            content: {
              'application/json': {
                schema: { allOf: [ref('Error'), { properties: { code: { const: 'SERVER_ERROR' } } }] },
                example: { status: 'error', code: 'SERVER_ERROR', message: 'An unexpected error occurred' },
              },
            },
          },
        },
        securitySchemes: SECURITY_SCHEMES,
      },
    };
    return document as ReturnType<NonNullable<FastifyDynamicSwaggerOptions['transformObject']>>;
  };

  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Payments Gateway API',
        version: serviceVersion(),
        description: `${DESCRIPTION}\n\n${ENVIRONMENT[config.env]}`,
      },
      servers: [{ url: '/', description: `This service (${config.env})` }],
      // Needed while the operations are built (@fastify/swagger reads them); the rest of the components come in transformObject.
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    // OpenAPI 3.1 has `const`, and the document says it as it is.
    convertConstToEnum: false,
    transform,
    transformObject,
  } as FastifyDynamicSwaggerOptions;
}
