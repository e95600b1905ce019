import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { PaymentsEnv } from '../../config';
import { AppError } from '../../shared/errors';

/**
 * Where webhooks may go. Production: https only, no credentials in the URL, and
 * every address the host resolves to must be public unicast (no loopback,
 * private, link-local, CGNAT, unique-local, metadata or other reserved ranges,
 * IPv4 or IPv6, however written: the URL parser normalises decimal and hex IPv4
 * forms first). Sandbox: http and loopback are allowed so merchants can test
 * locally, but link-local and the other cloud metadata addresses stay refused.
 */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Cloud metadata endpoints outside the link-local ranges (AWS over IPv6, Alibaba Cloud): refused in every environment. */
const METADATA_ADDRESSES = ['fd00:ec2::254', '100.100.100.200'].map((a) => ipaddr.parse(a).toNormalizedString());

/**
 * What the sandbox refuses although it allows local addresses: link-local (cloud
 * metadata), non-unicast, and the IPv6 translation prefixes (NAT64, 6to4, Teredo),
 * which can carry any IPv4 address, the metadata one included.
 */
const SANDBOX_REFUSED_RANGES = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast', 'rfc6052', 'rfc6145', '6to4', 'teredo']);

export function checkAddress(address: string, env: PaymentsEnv): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, reason: `${address} is not an IP address` };
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.includes(ip.toNormalizedString())) return { allowed: false, reason: `${address} is a cloud metadata address` };
  const range = ip.range();
  if (range === 'unicast') return { allowed: true };
  if (env === 'sandbox' && !SANDBOX_REFUSED_RANGES.has(range)) return { allowed: true };
  return { allowed: false, reason: `${address} is a ${range} address` };
}

/** Parses and checks a webhook URL's form (not its addresses). */
export function parseWebhookUrl(raw: unknown, env: PaymentsEnv): URL {
  const refuse = (issue: string) => AppError.invalidRequest(`url ${issue}`, [{ field: 'url', issue }]);
  if (typeof raw !== 'string' || raw.trim() === '') throw refuse('is required');
  if (raw.length > 2048) throw refuse('must be at most 2048 characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse('is not a valid URL');
  }
  const schemes = env === 'production' ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) throw refuse(env === 'production' ? 'must use https' : 'must use http or https');
  if (url.username || url.password) throw refuse('must not contain credentials');
  if (url.hash) throw refuse('must not contain a fragment');
  return url;
}

/** Every address the URL's host resolves to (an IP literal resolves to itself). */
export async function resolveHost(url: URL): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return [host];
  const results = await lookup(host, { all: true, verbatim: true });
  return results.map((r) => r.address);
}

/** The URL is well formed and every address it resolves to is allowed; otherwise INVALID_REQUEST. */
export async function assertWebhookUrlAllowed(raw: unknown, env: PaymentsEnv): Promise<URL> {
  const url = parseWebhookUrl(raw, env);
  let addresses: string[];
  try {
    addresses = await resolveHost(url);
  } catch {
    throw AppError.invalidRequest(`url host ${url.hostname} does not resolve`, [{ field: 'url', issue: 'host does not resolve' }]);
  }
  for (const address of addresses) {
    const verdict = checkAddress(address, env);
    if (!verdict.allowed) {
      throw AppError.invalidRequest(`url must not point to a private or reserved address (${verdict.reason})`, [
        { field: 'url', issue: `resolves to a forbidden address: ${verdict.reason}` },
      ]);
    }
  }
  return url;
}
