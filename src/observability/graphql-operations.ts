/**
 * What the metrics are told of GraphQL operations. The doors (transport/graphql/operation-observer.ts)
 * observe each operation and call this interface; the metrics implement it. Defined here, below both,
 * so observability never imports a door.
 */
type GraphQLTransport = 'http' | 'ws';
export type GraphQLOperationType = 'query' | 'mutation' | 'subscription' | 'unknown';
export type GraphQLOutcome = 'ok' | 'error';

/** The operation name of an operation without one. */
export const ANONYMOUS_OPERATION = 'anonymous';
/** The operation name of a document refused before it ran (did not parse or validate, bad token, over a limit). */
export const INVALID_OPERATION = 'invalid';

/**
 * Told of every GraphQL operation once it has an outcome, and of the sockets' comings
 * and goings (the metrics implement it; nothing here knows how they are kept).
 * `name` is the operation's own name only when its document parsed and validated.
 */
export interface GraphQLOperationObserver {
  operation(transport: GraphQLTransport, type: GraphQLOperationType, name: string, outcome: GraphQLOutcome, seconds: number): void;
  socketOpened(): void;
  socketClosed(): void;
  subscriptionStarted(): void;
  subscriptionEnded(): void;
}
