import { Client, fetchExchange } from '@urql/core';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  TransactionByReferenceDocument,
  TransactionStatusChangedDocument,
  type GraphQL,
  type PaymentsClient,
  type TransactionFieldsFragment,
  type TransactionStatusChangedSubscription,
} from '../src';
import { baseUrl, clientFromEnv, env, runIfMain } from './run';

const FINAL: GraphQL.TransactionStatus[] = ['SUCCESSFUL', 'FAILED', 'EXPIRED'];

/**
 * Follows a transaction over GraphQL until its status is final: the SDK's typed documents with urql (HTTP)
 * and graphql-ws (WebSocket), authenticated with the SDK's token.
 */
export async function followTransaction(payments: PaymentsClient, reference: string, url = baseUrl): Promise<TransactionFieldsFragment> {
  const ws = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: async () => ({ Authorization: `Bearer ${await payments.getAccessToken()}` }),
  });
  try {
    // Subscribe first, then read the current status: a transaction decided before the subscription
    // started is final in the read; one decided later comes by the subscription.
    const changed = new Promise<TransactionFieldsFragment>((resolve, reject) => {
      ws.subscribe<TransactionStatusChangedSubscription>(
        { query: print(TransactionStatusChangedDocument), variables: { reference } },
        {
          next: ({ data, errors }) => {
            if (errors) reject(new Error(errors[0]!.message));
            else if (data && FINAL.includes(data.transactionStatusChanged.status)) resolve(data.transactionStatusChanged);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    changed.catch(() => undefined); // not awaited when the read shows it final already
    const urql = new Client({
      url: `${url}/graphql`,
      exchanges: [fetchExchange],
      preferGetMethod: false, // a POST with a JSON body (the service refuses a GET query without a CSRF header)
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('Authorization', `Bearer ${await payments.getAccessToken()}`);
        return fetch(input, { ...init, headers });
      },
    });
    const { data, error } = await urql.query(TransactionByReferenceDocument, { reference }).toPromise();
    if (error) throw error;
    return FINAL.includes(data!.transaction.status) ? data!.transaction : await changed;
  } finally {
    await ws.dispose();
  }
}

runIfMain(module, () => followTransaction(clientFromEnv(), env('REFERENCE')));
