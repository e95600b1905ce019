import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { redactCardNumbers } from '../../shared/card-numbers';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** An AppError as GraphQL carries it: the same code in extensions.code. */
export function toGraphQLError(err: AppError): GraphQLError {
  const { message, extensions } = graphqlView(err);
  return new GraphQLError(message, { extensions });
}

/**
 * Services name fields in the domain's camelCase, as GraphQL does; only a page
 * size differs: the domain's `limit` is a connection's `first`.
 */
const GRAPHQL_ARGUMENT_NAMES: Record<string, string> = { limit: 'first' };
const graphqlName = (field: string) => GRAPHQL_ARGUMENT_NAMES[field] ?? field;

/** An AppError as the GraphQL door says it: its message and extensions in GraphQL's names. */
function graphqlView(err: AppError) {
  const { message, details } = err.view(graphqlName);
  return { message, extensions: { code: err.code, http: { status: err.httpStatus }, ...(details ? { details } : {}) } };
}

const NAME = '[_A-Za-z][_0-9A-Za-z]*';
/** A type as graphql-js prints it: `String!`, `[CardInput!]`. */
const TYPE = '[_A-Za-z\\[][_0-9A-Za-z\\[\\]!]*';
const re = (source: string) => new RegExp(source);

/** A name that came from the request (an unknown field's), kept only when it cannot be a value in disguise. */
const requestName = (name: string) => (/^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(name) && !/\d{3}/.test(name) ? name : null);

/** Our own scalars' messages, which quote no input. */
const OWN_MESSAGES = new Set([
  'Decimal must be a plain decimal number such as "100.50" (no exponent, no spaces)',
  'Decimal does not accept a float: send it as a string, e.g. "100.50"',
  'Decimal does not accept a float literal: send it as a string, e.g. "100.50"',
  'Decimal must be a string: send it as a string, e.g. "100.50"',
]);

/**
 * What graphql-js says is wrong with one value, rebuilt from the schema's names
 * and the template's own words: nothing the client sent can come through. Null
 * when the text is not one of graphql 16's templates.
 */
function problemOf(text: string): string | null {
  if (OWN_MESSAGES.has(text)) return text;
  let m: RegExpExecArray | null;
  if ((m = re(`^Expected type "(${TYPE})" to be an object\\.$`).exec(text))) return `Expected type "${m[1]}" to be an object.`;
  if ((m = re(`^Expected value of type "(${TYPE})", found [\\s\\S]*$`).exec(text))) return `Expected value of type "${m[1]}".`;
  if ((m = re(`^Field "(${NAME}(?:\\.${NAME})?)" of required type "(${TYPE})" was not provided\\.$`).exec(text))) {
    return `Field "${m[1]}" of required type "${m[2]}" was not provided.`;
  }
  if ((m = re(`^Field "([\\s\\S]*)" is not defined by type "(${NAME})"\\.(?: Did you mean [\\s\\S]*)?$`).exec(text))) {
    const field = requestName(m[1]!);
    return field ? `Field "${field}" is not defined by type "${m[2]}".` : `A field is not defined by type "${m[2]}".`;
  }
  if ((m = re(`^(Enum "${NAME}"|${NAME}) cannot represent ([a-z0-9 -]*?)value(?:: [\\s\\S]*)?\\.?$`).exec(text)))
    return `${m[1]} cannot represent ${m[2]}value.`;
  if ((m = re(`^(${NAME}) cannot represent [\\s\\S]*$`).exec(text))) return `${m[1]} cannot represent the value given.`;
  if (
    (m = re(
      `^Value "[\\s\\S]*" does not exist in "(${NAME})" enum\\.(?: Did you mean (?:the enum value )?("${NAME}"(?:, "${NAME}")*(?:,? or "${NAME}")?)\\?)?$`,
    ).exec(text))
  ) {
    return `The value does not exist in "${m[1]}" enum.${m[2] ? ` Did you mean the enum value ${m[2]}?` : ''}`;
  }
  return null;
}

/**
 * `Variable "$input" got invalid value <the value> at "<path>"; <problem>`, rebuilt
 * without the value. The value can hold anything, `; ` and ` at "` included, so
 * the split is found from the end: the last `; ` after which a graphql-js
 * template follows. Nothing recognisable: the variable's name alone.
 */
function variableProblem(message: string): string | null {
  const m = re(`^Variable "\\$(${NAME})" got invalid value `).exec(message);
  if (!m) return null;
  const variable = m[1]!;
  const rest = message.slice(m[0].length);
  const splits = [...rest.matchAll(/; /g)].map((x) => x.index!).reverse();
  for (const at of splits) {
    const problem = problemOf(rest.slice(at + 2));
    if (problem === null) continue;
    const path = re(` at "(${variable}(?:\\.${NAME}|\\[\\d+\\])*)"$`).exec(rest.slice(0, at));
    return `Variable "$${variable}" got an invalid value${path ? ` at "${path[1]}"` : ''}; ${problem}`;
  }
  return `Variable "$${variable}" got an invalid value.`;
}

/**
 * The field a variable's coercion error is about, as REST's `details` name one: the path inside the variable
 * (`input.amount` → `amount`, `input.card.number` → `card.number`; a scalar variable: its own name), and a required
 * field not provided (`Field "amount" of required type … was not provided` → `amount`). Read from the message once
 * its values are gone (withoutInputValues), so it quotes nothing the client sent. Null: no variable is named.
 */
export function variableDetail(sanitized: string): { field: string; issue: string } | null {
  const m = re(`^Variable "\\$(${NAME})" got an invalid value(?: at "(${NAME}(?:\\.${NAME}|\\[\\d+\\])*)")?; ([\\s\\S]+)$`).exec(sanitized);
  if (!m) return null;
  const [, variable, path, issue] = m as unknown as [string, string, string | undefined, string];
  const inside = path && path !== variable ? path.slice(variable.length + 1) : null;
  const missing = re(`^Field "(${NAME})" of required type "${TYPE}" was not provided\\.$`).exec(issue);
  const field = missing ? [inside, missing[1]].filter(Boolean).join('.') : (inside ?? variable);
  return { field, issue };
}

/** `Syntax Error: Unexpected Int "4242…".` → `Syntax Error: Unexpected Int.`: the words up to the first quoted token that is not punctuation. */
function syntaxProblem(message: string): string | null {
  const m = /^Syntax Error: ((?:[^"]|"[^\w\s"]{1,3}")*)/.exec(message);
  if (!m) return null;
  const words = m[1]!.replace(/[\s,:.]+$/, '').replace(/ but got$/, '');
  return `Syntax Error: ${words}.`;
}

/**
 * graphql-js quotes the offending value in its request errors (`Variable "$input"
 * got invalid value { number: "4242…" } at "input.card"; …`, `Int cannot represent
 * non-integer value: "737"`, `Expected value of type "Int!", found "…"`, `Unexpected
 * Int "4242…"`). The value may be a card number, a CVC or a secret. These messages
 * are rebuilt from their templates with the variable, the path and the expected
 * type only (fail closed: an unrecognised one says less, never more); other
 * messages quote no values. Any card number left is redacted as well.
 */
export function withoutInputValues(message: string): string {
  return redactCardNumbers(variableProblem(message) ?? syntaxProblem(message) ?? problemOf(message) ?? message);
}

function originalOf(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}

/**
 * GraphQL door: the one place that decides what an error looks like (Apollo's
 * formatError and the WebSocket server both call it). AppErrors keep their code;
 * GraphQL's own request errors (syntax, validation, variable coercion) become
 * INVALID_REQUEST; everything else is logged and hidden behind SERVER_ERROR.
 * Without `suggestions` (production), "Did you mean …" hints are dropped: they
 * reveal the schema to whoever guesses at it.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
  { suggestions = true }: { suggestions?: boolean } = {},
): GraphQLFormattedError {
  const original = originalOf(error);
  const where = { ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}) };
  if (original instanceof AppError) {
    return { ...graphqlView(original), ...where };
  }
  if (original instanceof GraphQLError) {
    const code = original.extensions?.code;
    if (typeof code === 'string' && code in { INVALID_TOKEN: 1, INVALID_REQUEST: 1, RATE_LIMITED: 1 }) {
      return { message: formatted.message.replace(/^Context creation failed: /, ''), ...where, extensions: original.extensions };
    }
    if (code !== 'INTERNAL_SERVER_ERROR') {
      const message = suggestions ? withoutInputValues(formatted.message) : withoutInputValues(formatted.message).replace(/\s*Did you mean [\s\S]*\?$/, '');
      // A variable's value refused by its type (a Decimal that is not one, a missing field) names its field, as REST does.
      const detail = variableDetail(message);
      return { ...graphqlView(AppError.invalidRequest(message, detail ? [detail] : undefined)), ...where };
    }
  }
  logger.error({ err: original }, 'unhandled GraphQL error');
  const hidden = new AppError('SERVER_ERROR', 'An unexpected error occurred');
  return { ...graphqlView(hidden), ...where };
}
