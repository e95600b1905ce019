import { useState } from 'react';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import { ErrorText, Loading, when } from '../ui';

const CREDENTIALS = graphql(`
  query Credentials {
    merchant {
      clientId
      webhookSecretOverlapUntil
    }
  }
`);
const ROTATE = graphql(`
  mutation RotateWebhookSecret {
    rotateWebhookSecret {
      webhookSecret
      previousSecretExpiresAt
    }
  }
`);

export function Credentials() {
  const [{ data, error }, reload] = useQuery({ query: CREDENTIALS });
  const [rotation, rotateSecret] = useMutation(ROTATE);
  /** The new secret, until "I have stored it". */
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState('');

  async function rotate() {
    if (!confirm('Rotate the webhook signing secret? The old one keeps signing for 24 hours.')) return;
    const res = await rotateSecret({});
    if (!res.data) return;
    setSecret(res.data.rotateWebhookSecret.webhookSecret);
    setCopied('');
    reload();
  }

  async function copy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied.');
    } catch {
      setCopied('Could not copy: select the secret and copy it yourself.');
    }
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="your credentials" />;
  return (
    <section aria-labelledby="cred-title">
      <h2 id="cred-title">Credentials</h2>
      <dl className="facts">
        <div>
          <dt>Client ID</dt>
          <dd>
            <code>{data.merchant.clientId}</code>
          </dd>
        </div>
        <div>
          <dt>Client secret</dt>
          <dd>Shown once, when the merchant was created; never again.</dd>
        </div>
        <div>
          <dt>Webhook secret</dt>
          <dd>
            {data.merchant.webhookSecretOverlapUntil ? (
              <span data-testid="overlap">The previous secret also signs deliveries until {when(data.merchant.webhookSecretOverlapUntil)}.</span>
            ) : (
              'One secret signs deliveries.'
            )}
          </dd>
        </div>
      </dl>
      <button type="button" onClick={() => void rotate()}>
        Rotate webhook secret
      </button>
      <ErrorText error={rotation.error} />
      {secret && (
        <div className="secret" role="region" aria-label="New webhook secret">
          <p>
            <strong>Your new webhook secret.</strong> It is shown only now: store it where your webhook receiver reads it.
          </p>
          <code data-testid="new-secret">{secret}</code>
          <div className="actions">
            <button type="button" onClick={() => void copy()}>
              Copy
            </button>
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              I have stored it
            </button>
          </div>
          <p role="status">{copied}</p>
        </div>
      )}
    </section>
  );
}
