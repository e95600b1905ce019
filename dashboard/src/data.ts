import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { useState } from 'react';
import {
  createRequest,
  useMutation as useUrqlMutation,
  useQuery as useUrqlQuery,
  useSubscription as useUrqlSubscription,
  type AnyVariables,
  type OperationContext,
  type SubscriptionHandler,
  type UseMutationResponse,
  type UseQueryResponse,
  type UseSubscriptionResponse,
} from 'urql';

/**
 * The screens' data hooks: urql's React bindings (`urql`, over the client in ./session.ts), taking
 * the typed documents that GraphQL Code Generator writes into ./generated. Those are typed strings
 * (codegen's `documentMode: string`, smaller in the bundle), which urql reads as plain strings: each
 * hook hands urql the text and keeps the document's result and variables types. A screen reads
 *
 *   const [{ data, fetching, error }, reexecute] = useQuery({ query: XDocument, variables });
 *
 * `error` is urql's CombinedError; `<ErrorText>` shows it in the API's words (code and fields).
 */

type Document<R, V> = DocumentTypeDecoration<R, V>;

/** The variables argument: optional when the operation has none that are required. */
type WithVariables<V> = Record<string, never> extends V ? { variables?: V } : { variables: V };

export type QueryArgs<R, V> = { query: Document<R, V>; pause?: boolean; context?: Partial<OperationContext> } & WithVariables<V>;

/**
 * A query, read when the screen shows it and again when its variables change (or on `reexecute`).
 * Unlike urql's own hook, the answer to other variables is never shown while the new one is read:
 * `data` is undefined until it is in (a list filtered anew shows "Loading", not the old rows). A
 * re-read of the same variables keeps its data meanwhile, with `fetching` set.
 */
export function useQuery<R, V extends AnyVariables>(args: QueryArgs<R, V>): UseQueryResponse<R, V> {
  const text = args.query.toString();
  const [state, reexecute] = useUrqlQuery<R, V>({ ...args, query: text, variables: args.variables as V });
  const key = createRequest(text, args.variables as V).key;
  if (state.operation && state.operation.key !== key) return [{ ...state, data: undefined, error: undefined, fetching: true }, reexecute];
  return [state, reexecute];
}

/** A mutation: `execute(variables)` sends it; the state holds its answer (or error) until the next one. */
export function useMutation<R, V extends AnyVariables>(document: Document<R, V>): UseMutationResponse<R, V> {
  return useUrqlMutation<R, V>(document.toString());
}

/**
 * A subscription over the session's graphql-ws socket, from when the screen shows it until it goes
 * (or its variables change). `handler` folds each event into the result (urql's reducer), so no
 * event is lost between two renders; without one, `data` is the latest event.
 */
export function useSubscription<R, V extends AnyVariables, Result = R>(
  args: QueryArgs<R, V>,
  handler?: SubscriptionHandler<R, Result>,
): UseSubscriptionResponse<Result, V> {
  return useUrqlSubscription<R, Result, V>({ ...args, query: args.query.toString(), variables: args.variables as V }, handler);
}

/** A page of a connection, as the API answers one. */
export interface Connection<N> {
  edges: Array<{ node: N }>;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/**
 * A list read a page at a time ("Load more"): each page is a `useQuery` of the same document with
 * the previous page's end cursor as `after`, and the pages already read stay on screen above it.
 * `rows` is null until the first page is in; `loadMore` is null when there is no further page.
 */
export function usePages<R, V extends AnyVariables & { after?: string | null }, N>(
  args: { query: Document<R, V>; variables: Omit<V, 'after'> },
  page: (data: R) => Connection<N>,
) {
  // The pages read so far belong to these variables: others (a new filter) start again from the first page.
  const key = JSON.stringify(args.variables);
  const [read, setRead] = useState<{ key: string; after: string | null; earlier: N[] }>({ key, after: null, earlier: [] });
  if (read.key !== key) setRead({ key, after: null, earlier: [] }); // React renders again at once, before showing anything
  const { after, earlier } = read.key === key ? read : { after: null, earlier: [] as N[] };
  const [{ data, fetching, error }, reexecute] = useQuery<R, V>({ query: args.query, variables: { ...args.variables, after } as unknown as V } as QueryArgs<
    R,
    V
  >);
  const current = data ? page(data) : null;
  const rows = current ? [...earlier, ...current.edges.map((e) => e.node)] : after === null ? null : earlier;
  // While a further page is read (or failed), its cursor stays: "Load more" stays where it was.
  const cursor = current ? (current.pageInfo.hasNextPage ? (current.pageInfo.endCursor ?? null) : null) : after;
  const loadMore = !cursor
    ? null
    : () => {
        if (fetching) return;
        if (!current) return reexecute(); // the page failed: read it again
        setRead({ key, after: cursor, earlier: rows ?? [] });
      };
  return { rows, error, fetching, loadMore };
}
