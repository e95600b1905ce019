import { AppError } from '../shared/errors';

/**
 * Two credentials in one request are refused, whichever of them is valid: Node keeps
 * the first of several Authorization headers, and a proxy in front may keep another,
 * so the two would disagree about who is calling. A scan of the raw header names
 * (a short array) per request.
 */
export function assertOneAuthorizationHeader(rawHeaders: string[]): void {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++seen > 1) {
      throw AppError.invalidToken('Send one Authorization header, not several');
    }
  }
}

/** graphql-ws's connection_init payload: its one Authorization entry, in any spelling; several → none (refused). */
export function authorizationParam(params: Record<string, unknown>): unknown {
  let found: unknown;
  let seen = 0;
  for (const [key, value] of Object.entries(params)) {
    if (key.length === 13 && key.toLowerCase() === 'authorization') {
      found = value;
      seen++;
    }
  }
  return seen === 1 ? found : undefined;
}
