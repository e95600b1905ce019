import { useState, type FormEvent } from 'react';
import { useCan } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { PaymentLinksQuery } from '../generated/graphql';
import { CopyButton, EmptyState, ErrorText, Link, Loading, StatusBadge, when } from '../ui';
import { formatAmount, inCurrency } from '../money';

const LINKS = graphql(`
  query PaymentLinks {
    paymentLinks(first: 100) {
      edges {
        node {
          id
          name
          slug
          url
          qrSvg
          active
          amount
          minAmount
          maxAmount
          currency
          paymentsCount
          maxPayments
          expiresAt
          createdAt
        }
      }
    }
  }
`);
const CREATE = graphql(`
  mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {
    createPaymentLink(input: $input) {
      id
      url
    }
  }
`);
const DEACTIVATE = graphql(`
  mutation DeactivatePaymentLink($id: ID!) {
    deactivatePaymentLink(id: $id) {
      id
      active
    }
  }
`);
const LINK_PAYMENTS = graphql(`
  query PaymentLinkPayments($link: String!) {
    transactions(first: 50, filter: { paymentLinkId: $link }) {
      edges {
        node {
          reference
          externalReference
          status
          amount
          currency
          createdAt
        }
      }
    }
  }
`);

type PaymentLinkRow = PaymentLinksQuery['paymentLinks']['edges'][number]['node'];

/** A form field's trimmed value, or undefined when empty (the service's "left out"). */
const given = (f: FormData, name: string) => {
  const v = String(f.get(name) ?? '').trim();
  return v === '' ? undefined : v;
};

/** What the link asks: its fixed amount, or the payer's choice within bounds. */
function priceOf(l: PaymentLinkRow): string {
  if (l.amount) return inCurrency(l.amount, l.currency);
  const bounds = [l.minAmount && `from ${formatAmount(l.minAmount)}`, l.maxAmount && `up to ${formatAmount(l.maxAmount)}`].filter(Boolean).join(' ');
  return `Payer chooses${bounds ? ` (${bounds} ${l.currency})` : ` (${l.currency})`}`;
}

/** A link's payments: the transactions of the checkout sessions it opened. */
function LinkPayments({ link }: { link: string }) {
  const [{ data, error }] = useQuery({ query: LINK_PAYMENTS, variables: { link } });
  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="its payments" />;
  const rows = data.transactions.edges.map((e) => e.node);
  if (rows.length === 0) return <p className="muted">No payments yet.</p>;
  return (
    <ul className="rows" aria-label="Payments of this link">
      {rows.map((t) => (
        <li key={t.reference}>
          <Link to={`/transactions/${encodeURIComponent(t.reference)}`}>{t.externalReference}</Link> {inCurrency(t.amount, t.currency)}{' '}
          <StatusBadge status={t.status} /> <span className="muted">{when(t.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Payment links: a page at /pay/{slug} (and its QR code) that takes a payment without a developer. Each visit opens
 * a checkout session; with no amount, the payer chooses one within the bounds.
 */
export function PaymentLinks() {
  const can = useCan();
  const [{ data, error }, reread] = useQuery({ query: LINKS });
  const [creating, create] = useMutation(CREATE);
  const [deactivating, deactivate] = useMutation(DEACTIVATE);
  const [open, setOpen] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const collect = (['PHONE', 'NAME'] as const).filter((c) => f.get(`collect-${c}`) === 'on');
    const res = await create({
      input: {
        name: String(f.get('name')).trim(),
        currency: String(f.get('currency')).trim().toUpperCase(),
        amount: given(f, 'amount'),
        minAmount: given(f, 'minAmount'),
        maxAmount: given(f, 'maxAmount'),
        description: given(f, 'description'),
        slug: given(f, 'slug'),
        collect: ['EMAIL', ...collect],
      },
    });
    if (!res.data) return;
    setMade(res.data.createPaymentLink.url);
    form.reset();
    reread();
  }
  async function deactivateOne(l: PaymentLinkRow) {
    if (!confirm(`Deactivate “${l.name}”? Its page stops taking payments for good.`)) return;
    if ((await deactivate({ id: l.id })).data) reread();
  }

  const links = data?.paymentLinks.edges.map((e) => e.node) ?? [];
  return (
    <section aria-labelledby="links-title">
      <h2 id="links-title">Payment links</h2>
      <p className="muted">A page you share (or print as a QR code) that takes mobile money, card and bank transfer payments. No code needed.</p>
      {can('payments:create') && (
        <form className="inline" onSubmit={submit} aria-label="Create a payment link">
          <label>
            What it is for
            <input name="name" required maxLength={120} placeholder="e.g. Ankara dress" autoComplete="off" />
          </label>
          <label>
            Currency
            <input name="currency" required maxLength={3} placeholder="NGN" autoComplete="off" />
          </label>
          <label>
            Amount (empty: the payer chooses)
            <input name="amount" inputMode="decimal" autoComplete="off" />
          </label>
          <label>
            Minimum
            <input name="minAmount" inputMode="decimal" autoComplete="off" />
          </label>
          <label>
            Maximum
            <input name="maxAmount" inputMode="decimal" autoComplete="off" />
          </label>
          <label>
            Description
            <input name="description" maxLength={500} autoComplete="off" />
          </label>
          <label>
            Address (slug, optional)
            <input name="slug" maxLength={64} pattern="[a-z0-9][a-z0-9-]{1,62}[a-z0-9]" placeholder="ankara-dress" autoComplete="off" />
          </label>
          <fieldset className="collect">
            <legend>Ask the payer for (email always)</legend>
            <label>
              <input type="checkbox" name="collect-PHONE" /> Phone
            </label>
            <label>
              <input type="checkbox" name="collect-NAME" /> Name of the payer
            </label>
          </fieldset>
          <button type="submit" disabled={creating.fetching}>
            {creating.fetching ? 'Creating…' : 'Create link'}
          </button>
          <ErrorText error={creating.error} />
        </form>
      )}
      {made && (
        <p role="status" data-testid="new-link">
          Link created: <a href={made}>{made}</a> <CopyButton value={made} name="Copy the link" />
        </p>
      )}
      <ErrorText error={error ?? deactivating.error} />
      {!data && !error && <Loading what="your payment links" />}
      {data && links.length === 0 && <EmptyState title="No payment links yet">Create one above and share its address or QR code.</EmptyState>}
      {links.length > 0 && (
        <div className="table-card scroll">
          <table className="list" aria-label="Payment links">
            <thead>
              <tr>
                <th scope="col">Link</th>
                <th scope="col">Price</th>
                <th scope="col">Payments</th>
                <th scope="col">QR code</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id} data-link={l.slug}>
                  <td>
                    {l.name} <StatusBadge status={l.active ? 'active' : 'inactive'} />
                    <span className="sub mono">
                      <a href={l.url}>{l.url}</a> <CopyButton value={l.url} name={`Copy the link ${l.name}`} />
                    </span>
                    {l.expiresAt && <span className="sub">expires {when(l.expiresAt)}</span>}
                  </td>
                  <td>{priceOf(l)}</td>
                  <td>
                    <button type="button" className="secondary" aria-expanded={open === l.id} onClick={() => setOpen(open === l.id ? null : l.id)}>
                      {l.paymentsCount}
                      {l.maxPayments ? ` of ${l.maxPayments}` : ''} paid
                    </button>
                    {open === l.id && <LinkPayments link={l.id} />}
                  </td>
                  <td>
                    <img
                      className="link-qr"
                      width={96}
                      height={96}
                      alt={`QR code for ${l.url}`}
                      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(l.qrSvg)}`}
                    />
                  </td>
                  <td>
                    <div className="row-actions">
                      {l.active && can('payments:create') && (
                        <button type="button" className="secondary" onClick={() => void deactivateOne(l)} disabled={deactivating.fetching}>
                          Deactivate
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
