import { GraphQLError, buildSchema, getVariableValues, graphql, parse, validate, type OperationDefinitionNode } from 'graphql';
import { variableDetail, withoutInputValues } from '../../src/transport/graphql/errors';

/**
 * withoutInputValues against the messages graphql 16 really produces: each one is
 * generated here by graphql-js itself (variable coercion, literal validation,
 * parsing) on a small schema shaped like the payment input, then run through the
 * function. Values must go; the variable, the path and the expected type stay.
 *
 * The card number used is Luhn-INVALID (a mistyped card), so redactCardNumbers
 * cannot hide it: only the stripping of values can. The CVC is 3 digits that
 * appear nowhere else in the messages.
 */
const TYPO = '4242424242424241';
const VALID = '4242424242424242';
const CVC = '913';

const schema = buildSchema(`
  enum PaymentMethod { CARD }
  input CardInput { number: String! expMonth: Int! expYear: Int! cvc: String! postalCode: String }
  input InitiatePaymentInput {
    reference: String!
    currency: String!
    paymentMethod: PaymentMethod = CARD
    card: CardInput!
    cards: [CardInput!]
    tags: [String!]
    description: String
  }
  type Query { ok: String }
  type Mutation {
    initiatePayment(input: InitiatePaymentInput!): String
    charge(number: String!, cvc: String!, expMonth: Int!): String
  }
`);

const PAY = 'mutation($input: InitiatePaymentInput!) { initiatePayment(input: $input) }';
const CHARGE = 'mutation($number: String!, $cvc: String!, $expMonth: Int!) { charge(number: $number, cvc: $cvc, expMonth: $expMonth) }';

const card = (overrides: Record<string, unknown> = {}) => ({ number: TYPO, expMonth: 12, expYear: 2030, cvc: CVC, ...overrides });
const payment = (overrides: Record<string, unknown> = {}) => ({ reference: 'ref-a', currency: 'NGN', card: card(), ...overrides });
const chargeVars = (overrides: Record<string, unknown> = {}) => ({ number: TYPO, cvc: CVC, expMonth: 12, ...overrides });

/** The messages graphql-js's variable coercion gives (as execute() reports them). */
function variableMessages(document: string, variables: Record<string, unknown>): string[] {
  const operation = parse(document).definitions[0] as OperationDefinitionNode;
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
  if (!result.errors) throw new Error('expected the variables to be refused');
  return result.errors.map((e) => e.message);
}

/** The one message validation gives for a document with a literal of the wrong type. */
function literalMessage(document: string): string {
  const errors = validate(schema, parse(document));
  if (errors.length !== 1) throw new Error(`expected one validation error, got ${errors.map((e) => e.message).join(' | ')}`);
  return errors[0]!.message;
}

function syntaxMessage(document: string): string {
  try {
    parse(document);
  } catch (err) {
    if (err instanceof GraphQLError) return err.message;
    throw err;
  }
  throw new Error('expected a syntax error');
}

const only = (messages: string[]) => {
  expect(messages).toHaveLength(1);
  return messages[0]!;
};

/** The stripped message holds no trace of the card. */
function expectNoCard(stripped: string) {
  expect(stripped).not.toContain(TYPO);
  expect(stripped).not.toContain(VALID);
  expect(stripped).not.toContain(CVC);
  expect(stripped).not.toContain('2030');
}

describe('withoutInputValues on graphql 16 variable-coercion messages', () => {
  it('the messages come from graphql-js as execute() reports them', async () => {
    const variables = { input: payment({ card: card({ number: Number(TYPO) }) }) };
    const executed = await graphql({ schema, source: PAY, variableValues: variables });
    expect(executed.errors!.map((e) => e.message)).toEqual(variableMessages(PAY, variables));
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'the number as an Int',
      { input: payment({ card: card({ number: Number(TYPO) }) }) },
      'Variable "$input" got an invalid value at "input.card.number"; String cannot represent a non string value.',
    ],
    [
      'the CVC as an Int',
      { input: payment({ card: card({ cvc: Number(CVC) }) }) },
      'Variable "$input" got an invalid value at "input.card.cvc"; String cannot represent a non string value.',
    ],
    [
      'expMonth given the card number as a string',
      { input: payment({ card: card({ expMonth: TYPO }) }) },
      'Variable "$input" got an invalid value at "input.card.expMonth"; Int cannot represent non-integer value.',
    ],
    [
      'expMonth given the card number as a (too large) Int',
      { input: payment({ card: card({ expMonth: Number(TYPO) }) }) },
      'Variable "$input" got an invalid value at "input.card.expMonth"; Int cannot represent non 32-bit signed integer value.',
    ],
    [
      'expYear given the CVC as a float',
      { input: payment({ card: card({ expYear: Number(`${CVC}.5`) }) }) },
      'Variable "$input" got an invalid value at "input.card.expYear"; Int cannot represent non-integer value.',
    ],
    [
      'the whole card as one string',
      { input: payment({ card: `${TYPO} 12/2030 ${CVC}` }) },
      'Variable "$input" got an invalid value at "input.card"; Expected type "CardInput" to be an object.',
    ],
    [
      'a card without its CVC (the rest of the card is the value printed)',
      { input: payment({ card: { number: TYPO, expMonth: 12, expYear: 2030 } }) },
      'Variable "$input" got an invalid value at "input.card"; Field "cvc" of required type "String!" was not provided.',
    ],
    [
      'an unknown field in the card (the rest of the card is the value printed)',
      { input: payment({ card: card({ pin: '0000' }) }) },
      'Variable "$input" got an invalid value at "input.card"; Field "pin" is not defined by type "CardInput".',
    ],
    [
      'the second card of a list',
      { input: payment({ cards: [card(), card({ number: Number(TYPO) })] }) },
      'Variable "$input" got an invalid value at "input.cards[1].number"; String cannot represent a non string value.',
    ],
    [
      'a list item',
      { input: payment({ tags: ['ok', Number(CVC)] }) },
      'Variable "$input" got an invalid value at "input.tags[1]"; String cannot represent a non string value.',
    ],
    [
      'a top-level String variable given an Int (no path)',
      chargeVars({ cvc: Number(CVC) }),
      'Variable "$cvc" got an invalid value; String cannot represent a non string value.',
    ],
    [
      'a top-level Int variable given the number as a string (no path)',
      chargeVars({ expMonth: TYPO }),
      'Variable "$expMonth" got an invalid value; Int cannot represent non-integer value.',
    ],
    [
      'a top-level Int variable given an object (no path)',
      chargeVars({ expMonth: { number: TYPO, cvc: CVC } }),
      'Variable "$expMonth" got an invalid value; Int cannot represent non-integer value.',
    ],
    [
      'a top-level input given a list (no path)',
      { input: [card()] },
      'Variable "$input" got an invalid value; Expected type "InitiatePaymentInput" to be an object.',
    ],
    [
      'a top-level input missing a field, with the card in it (no path)',
      { input: { reference: 'ref-a', card: card() } },
      'Variable "$input" got an invalid value; Field "currency" of required type "String!" was not provided.',
    ],
  ])('%s', (_name, variables, expected) => {
    const raw = only(variableMessages(variables.input ? PAY : CHARGE, variables));
    // graphql-js does echo the value …
    expect(raw).toMatch(new RegExp(`${TYPO}|${CVC}`));
    // … and the function leaves only the variable, the path and what was expected.
    const stripped = withoutInputValues(raw);
    expectNoCard(stripped);
    expect(stripped).toBe(expected);
  });

  it('an unknown field named like a value (a card number, plain or grouped) is not named', () => {
    for (const name of [VALID, '4242 4242 4242 4242', `cvc${CVC}`]) {
      const raw = only(variableMessages(PAY, { input: payment({ card: card({ [name]: CVC }) }) }));
      expect(raw).toContain(`Field "${name}" is not defined by type "CardInput".`);
      expect(withoutInputValues(raw)).toBe('Variable "$input" got an invalid value at "input.card"; A field is not defined by type "CardInput".');
    }
  });

  it('a message without a value is left as it is', () => {
    const operation = parse(CHARGE).definitions[0] as OperationDefinitionNode;
    const { errors } = getVariableValues(schema, operation.variableDefinitions!, { number: TYPO, expMonth: 1 });
    const message = errors![0]!.message;
    expect(message).toBe('Variable "$cvc" of required type "String!" was not provided.');
    expect(withoutInputValues(message)).toBe(message);
    const nulled = variableMessages(CHARGE, chargeVars({ cvc: null }))[0]!;
    expect(withoutInputValues(nulled)).toBe('Variable "$cvc" of non-null type "String!" must not be null.');
  });

  describe('values built to break it (containing "; " and \' at "\')', () => {
    it.each<[string, Record<string, unknown>, string]>([
      [
        '"; " inside a value that has a path',
        { input: payment({ card: card({ expMonth: `${TYPO}; ${CVC}` }) }) },
        'Variable "$input" got an invalid value at "input.card.expMonth"; Int cannot represent non-integer value.',
      ],
      [
        '\' at "input.card"; \' inside a string value (graphql-js escapes its quotes)',
        { input: payment({ card: card({ expMonth: `x at "input.card"; ${CVC}` }) }) },
        'Variable "$input" got an invalid value at "input.card.expMonth"; Int cannot represent non-integer value.',
      ],
      [
        '"; " inside another field of an object that has a path',
        { input: payment({ card: card({ postalCode: `a; ${CVC}`, pin: 1 }) }) },
        'Variable "$input" got an invalid value at "input.card"; Field "pin" is not defined by type "CardInput".',
      ],
    ])('%s: still stripped', (_name, variables, expected) => {
      const stripped = withoutInputValues(only(variableMessages(PAY, variables)));
      expectNoCard(stripped);
      expect(stripped).toBe(expected);
    });

    it('\' at "input.card"; \' in an unknown field NAME (printed unescaped): the card value goes, and the name too', () => {
      const [message] = variableMessages(PAY, { input: payment({ card: card({ 'k at "input.card"; tail': 1 }) }) });
      expect(message).toContain(`cvc: "${CVC}"`);
      const stripped = withoutInputValues(message!);
      expectNoCard(stripped);
      expect(stripped).toBe('Variable "$input" got an invalid value at "input.card"; A field is not defined by type "CardInput".');
    });
  });
});

describe('withoutInputValues on graphql 16 literal-validation messages', () => {
  const document = (cardLiteral: string, extra = '') =>
    `mutation { initiatePayment(input: { reference: "ref-a", currency: "NGN"${extra}, card: ${cardLiteral} }) }`;
  const literalCard = (parts: { number?: string; expMonth?: string; cvc?: string }) =>
    `{ number: ${parts.number ?? `"${TYPO}"`}, expMonth: ${parts.expMonth ?? '12'}, expYear: 2030, cvc: ${parts.cvc ?? `"${CVC}"`} }`;

  it.each<[string, string, string]>([
    ['the number as an Int literal', document(literalCard({ number: TYPO })), 'String cannot represent a non string value.'],
    ['the CVC as an Int literal', document(literalCard({ cvc: CVC })), 'String cannot represent a non string value.'],
    ['expMonth as a string literal', document(literalCard({ expMonth: `"${TYPO}"` })), 'Int cannot represent non-integer value.'],
    ['expMonth as a too large Int literal', document(literalCard({ expMonth: TYPO })), 'Int cannot represent non 32-bit signed integer value.'],
    ['expMonth as an object literal', document(literalCard({ expMonth: `{ cvc: "${CVC}" }` })), 'Int cannot represent non-integer value.'],
    ['the card as a string literal', document(`"${TYPO} 12/2030 ${CVC}"`), 'Expected value of type "CardInput!".'],
    // A list where one card belongs: graphql-js checks the item against CardInput.
    ['the card as a list literal', document(`["${TYPO} ${CVC}"]`), 'Expected value of type "CardInput".'],
    [
      'the payment method as a string literal',
      document(literalCard({}), `, paymentMethod: "${TYPO}"`),
      'Enum "PaymentMethod" cannot represent non-enum value.',
    ],
  ])('%s', (_name, source, expected) => {
    const raw = literalMessage(source);
    expect(raw).toMatch(new RegExp(`${TYPO}|${CVC}`));
    const stripped = withoutInputValues(raw);
    expectNoCard(stripped);
    expect(stripped).toBe(expected);
  });

  it('an unknown enum value literal: the name is cut, the enum and the suggestion stay', () => {
    const raw = literalMessage(document(literalCard({}), ', paymentMethod: CARDX'));
    expect(raw).toBe('Value "CARDX" does not exist in "PaymentMethod" enum. Did you mean the enum value "CARD"?');
    expect(withoutInputValues(raw)).toBe('The value does not exist in "PaymentMethod" enum. Did you mean the enum value "CARD"?');
  });
});

describe('withoutInputValues on graphql 16 syntax errors', () => {
  it.each<[string, string, string]>([
    [
      'a card number where a field name belongs',
      `mutation { initiatePayment(input: { card: { ${TYPO}: "${CVC}" } }) }`,
      'Syntax Error: Expected Name, found Int.',
    ],
    ['a card number after the document', `{ ok } ${TYPO}`, 'Syntax Error: Unexpected Int.'],
    ['a string where a field belongs', `{ ok "${TYPO} ${CVC}" }`, 'Syntax Error: Expected Name, found String.'],
    ['a missing colon before a string', `mutation { charge(number "${TYPO}") }`, 'Syntax Error: Expected ":", found String.'],
    ['a number running into a letter', `mutation { charge(expMonth: ${TYPO}x) }`, 'Syntax Error: Invalid number, expected digit.'],
    ['an unterminated string', `mutation { charge(number: "${TYPO}) }`, 'Syntax Error: Unterminated string.'],
  ])('%s', (_name, source, expected) => {
    const raw = syntaxMessage(source);
    const stripped = withoutInputValues(raw);
    expectNoCard(stripped);
    expect(stripped).toBe(expected);
  });
});

/**
 * Values built to break withoutInputValues (they broke its first version, which
 * cut values out instead of rebuilding the message): graphql-js echoes the card
 * in each message, and none of it survives.
 */
describe('withoutInputValues: values built to break it', () => {
  const breaks: Array<[string, string]> = [
    [
      // No ` at "path"` follows the value: the cut ends at the first "; ", here inside the value.
      'a top-level variable (no path) whose value contains "; "',
      only(variableMessages(CHARGE, chargeVars({ expMonth: `${TYPO}; ${CVC}` }))),
    ],
    [
      // The same with a realistic input: a missing top-level field, and a description with "; " before the card.
      'a top-level input (no path) missing a field, with "; " in a text field before the card',
      only(variableMessages(PAY, { input: { description: 'Two items; gift wrap', reference: 'ref-a', card: card() } })),
    ],
    [
      // No path, and a field NAME containing ` at "input"; `: that match, inside the printed value, is taken as the path.
      'a top-level input (no path) with a field name containing \' at "input"; \'',
      variableMessages(PAY, { input: { 'z at "input"; ': 1, reference: 'ref-a', card: card() } })[0]!,
    ],
    [
      // `Value "…" does not exist in … enum` is only cut at the start of a message, not after a variable's prefix.
      'an enum variable given the card number',
      only(variableMessages(PAY, { input: payment({ paymentMethod: `${TYPO} ${CVC}` }) })),
    ],
    [
      // `, found …` is cut up to the first "; ", here inside the literal.
      'a literal of the wrong kind containing "; "',
      literalMessage(`mutation { initiatePayment(input: { reference: "ref-a", currency: "NGN", card: "${TYPO}; ${CVC}" }) }`),
    ],
    [
      // The same `, found …` cut in a syntax error.
      'a syntax error whose unexpected string contains "; "',
      syntaxMessage(`mutation { charge(number "${TYPO}; ${CVC}") }`),
    ],
  ];

  it.each(breaks)('%s: graphql-js echoes the card in its message', (_name, raw) => {
    expect(raw).toContain(CVC);
  });

  it.each(breaks)('%s: the card survives withoutInputValues', (_name, raw) => {
    expectNoCard(withoutInputValues(raw));
  });
});

describe('variableDetail: the field a refused variable names, as REST names it', () => {
  it.each<[string, string, Record<string, unknown>, { field: string; issue: string }]>([
    [
      'a value inside an input',
      PAY,
      { input: payment({ card: card({ number: Number(TYPO) }) }) },
      { field: 'card.number', issue: 'String cannot represent a non string value.' },
    ],
    ['a top-level field of the input', PAY, { input: payment({ currency: 5 }) }, { field: 'currency', issue: 'String cannot represent a non string value.' }],
    [
      'a required field not provided',
      PAY,
      { input: { reference: 'ref-a', card: card() } },
      { field: 'currency', issue: 'Field "currency" of required type "String!" was not provided.' },
    ],
    [
      'a required field of a nested input not provided',
      PAY,
      { input: payment({ card: { number: TYPO, expMonth: 12, expYear: 2030 } }) },
      { field: 'card.cvc', issue: 'Field "cvc" of required type "String!" was not provided.' },
    ],
    ['a scalar variable', CHARGE, chargeVars({ expMonth: 'twelve' }), { field: 'expMonth', issue: 'Int cannot represent non-integer value.' }],
  ])('%s', (_what, document, variables, detail) => {
    const stripped = withoutInputValues(only(variableMessages(document, variables)));
    expectNoCard(stripped);
    expect(variableDetail(stripped)).toEqual(detail);
  });

  it('names nothing for a message about no variable', () => {
    expect(variableDetail(withoutInputValues(syntaxMessage('mutation { charge(number: 4242424242424241 }')))).toBeNull();
  });
});
