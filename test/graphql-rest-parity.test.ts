import { GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { buildGraphQLSchema } from '../src/transport/graphql/schema';
import { domainKey } from '../src/transport/rest/field-names';
import { responseComponents } from '../src/transport/rest/openapi/components';

/**
 * CONTRACT (preamble): a GraphQL type carries the same fields as its REST record, name
 * for name (`customer_uuid` → `customerUuid`). Both sides are read from what the doors
 * really publish: the REST records from the OpenAPI document's answer schemas (the
 * same zod schemas its tests check real answers against), the GraphQL types from the
 * code-first schema. A field added to one door and not the other fails here.
 */

type JsonSchema = { properties?: Record<string, unknown>; oneOf?: JsonSchema[]; allOf?: JsonSchema[]; $ref?: string };

/** The domain's (and so GraphQL's) name of a REST field, by the REST door's own mapping. */
const camel = (name: string) => domainKey(name) ?? name;

/** The REST record's field names, through `$ref`s and the `oneOf` of a record by kind. */
function restFields(components: Record<string, JsonSchema>, name: string): Set<string> {
  const fields = new Set<string>();
  const visit = (schema: JsonSchema | undefined) => {
    if (!schema) return;
    if (schema.$ref) return visit(components[schema.$ref.split('/').pop()!]);
    for (const key of Object.keys(schema.properties ?? {})) fields.add(key);
    for (const inner of [...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) visit(inner);
  };
  visit(components[name]);
  return fields;
}

function graphqlFields(schema: GraphQLSchema, name: string): Set<string> {
  const type = schema.getType(name);
  if (!(type instanceof GraphQLObjectType)) throw new Error(`GraphQL has no object type ${name}`);
  return new Set(Object.keys(type.getFields()));
}

/**
 * REST record → its GraphQL type, with the only differences allowed and why. A REST
 * field GraphQL names otherwise maps to that name; one GraphQL lacks on purpose is null.
 */
const PAIRS: Array<{ rest: string; graphql: string; renamed?: Record<string, string | null>; graphqlOnly?: Record<string, string> }> = [
  { rest: 'Merchant', graphql: 'Merchant', graphqlOnly: { id: 'kept from before merchantId: the same value' } },
  { rest: 'Country', graphql: 'Country' },
  { rest: 'Channel', graphql: 'Channel' },
  { rest: 'Network', graphql: 'Network' },
  { rest: 'Quote', graphql: 'Quote' },
  { rest: 'Customer', graphql: 'Customer', graphqlOnly: { uuid: 'deprecated alias of customerUuid' } },
  { rest: 'KycRecord', graphql: 'Kyc' },
  { rest: 'BankInfo', graphql: 'BankInfo' },
  { rest: 'Beneficiary', graphql: 'Beneficiary' },
  {
    rest: 'Transaction',
    graphql: 'Transaction',
    graphqlOnly: {
      history: 'the status history, a field resolver (REST: GET /v1/transactions/{reference}/events)',
      customer: 'the customer_uuid’s record, a field resolver batched per operation (REST: GET /v1/customer/{uuid})',
      counterparty:
        'who is on the other side, its account masked: a field resolver (a sender’s name is its customer’s, read batched per operation); REST has its parts in the record (beneficiary, account_number, customer_uuid) and the whole in the CSV export (counterparty_name, counterparty_account)',
    },
  },
  { rest: 'TransactionStatusChange', graphql: 'TransactionStatusChange' },
  {
    rest: 'WebhookEvent',
    graphql: 'WebhookEvent',
    graphqlOnly: { customer: 'the customer_uuid’s record, a field resolver batched per operation (REST: GET /v1/customer/{uuid})' },
  },
  { rest: 'WebhookSecretRotation', graphql: 'WebhookSecretRotation' },
  { rest: 'AuditLogEntry', graphql: 'AuditLogEntry' },
];

describe('GraphQL types mirror the REST records, field for field, in camelCase', () => {
  let schema: GraphQLSchema;
  let components: Record<string, JsonSchema>;

  beforeAll(async () => {
    schema = await buildGraphQLSchema();
    components = responseComponents() as Record<string, JsonSchema>;
  });

  it.each(PAIRS)('REST $rest ↔ GraphQL $graphql', ({ rest, graphql, renamed = {}, graphqlOnly = {} }) => {
    const restNames = restFields(components, rest);
    expect(restNames.size).toBeGreaterThan(0);
    const expected = new Set([...restNames].map((f) => (f in renamed ? renamed[f] : camel(f))).filter((f): f is string => f !== null));
    const actual = graphqlFields(schema, graphql);
    const missingInGraphQL = [...expected].filter((f) => !actual.has(f)).sort();
    const missingInRest = [...actual].filter((f) => !expected.has(f) && !(f in graphqlOnly)).sort();
    expect({ missingInGraphQL, missingInRest }).toEqual({ missingInGraphQL: [], missingInRest: [] });
  });
});
