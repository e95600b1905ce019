import type { FastifyInstance } from 'fastify';
import { parse as parseLossless } from 'lossless-json';
import { Decimal } from '../shared/money';

/**
 * JSON whose numbers are read exactly. JSON.parse reads `1500.000000000000000000000000000001`
 * as 1500, so an amount with more digits than its currency allows would pass as another
 * amount. A double carries every number literal of 15 significant digits or fewer exactly,
 * so only a literal of 16 or more digits and points (a number token: after `:`, `,` or
 * `[`) needs a second look; the scan may also hit such a run inside a string, which only
 * costs that second look. Bodies without one (nearly all) are read by JSON.parse alone.
 */
const LONG_NUMBER = /(?:^|[:,[])\s*-?\d[\d.]{15}/;

/** Whether the text may hold a number literal that JSON.parse would not read exactly. */
export function mayHaveInexactNumber(text: string): boolean {
  return LONG_NUMBER.test(text);
}

/** A number literal as the number it is, when a double carries it exactly; else its text, for the field's own rule to refuse by name. */
function exactNumber(literal: string): number | string {
  const n = Number(literal);
  return Number.isFinite(n) && new Decimal(String(n)).eq(new Decimal(literal)) ? n : literal;
}

/**
 * Parses JSON (already known to be valid and free of prototype keys: the caller ran
 * the framework's parser first) keeping every number that a double cannot carry
 * exactly as its literal text. A Decimal field then reads the text exactly and
 * refuses it ("must have at most 2 decimal places"); any other field refuses a string.
 */
export function parseExactNumbers(text: string): unknown {
  return parseLossless(text, null, exactNumber);
}

/**
 * Fastify's JSON parser (with its prototype-poisoning checks), and for the rare body
 * that may hold an inexact number, a second, exact reading. For every JSON door:
 * REST and GraphQL over HTTP.
 */
export function registerExactJsonParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    parseJson(request, text, (err, parsed) => {
      if (err || !mayHaveInexactNumber(text)) return done(err, parsed);
      done(null, parseExactNumbers(text));
    });
  });
}
