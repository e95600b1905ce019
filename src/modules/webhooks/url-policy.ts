import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { PaymentsEnv } from '../../config';
import { AppError } from '../../shared/errors';

/**
 * Where webhooks may go. Production: https only, no credentials in the URL, and
 * every address the host resolves to must be public unicast (no loopback,
 * private, link-local, CGNAT, unique-local, metadata or other reserved ranges,
 * IPv4 or IPv6, however written: the URL parser normalises decimal and hex IPv4
 * forms first, and an IPv6 address that embeds an IPv4 one is judged by it). Sandbox: http and loopback are allowed so merchants can test
 * locally, but link-local and the other cloud metadata addresses stay refused.
 */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Cloud metadata endpoints outside the link-local ranges (AWS over IPv6, Alibaba Cloud): refused in every environment. */
const METADATA_ADDRESSES = ['fd00:ec2::254', '100.100.100.200'].map((a) => ipaddr.parse(a).toNormalizedString());

/** What the sandbox refuses although it allows local addresses: link-local (cloud metadata) and non-unicast. */
const SANDBOX_REFUSED_RANGES = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast']);

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 address an IPv6 one carries, in every form that embeds one: mapped
 * (::ffff:a.b.c.d), compatible (::a.b.c.d, deprecated but still routed by some
 * stacks), translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48),
 * 6to4 (2002:aabb:ccdd::/48) and Teredo (2001:0::/32, the client's address
 * inverted in the last 32 bits). Null when it carries none.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  if (zeros(0, 6) && !(p[6] === 0 && p[7]! <= 1)) return ipv4Of(p[6]!, p[7]!); // compatible; not :: or ::1
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return ipv4Of(p[6]!, p[7]!); // translated
  if (p[0] === 0x64 && p[1] === 0xff9b) return ipv4Of(p[6]!, p[7]!); // NAT64, well-known and local-use
  if (p[0] === 0x2002) return ipv4Of(p[1]!, p[2]!); // 6to4
  if (p[0] === 0x2001 && p[1] === 0) return ipv4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff); // Teredo client
  return null;
}

export function checkAddress(address: string, env: PaymentsEnv): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, reason: `${address} is not an IP address` };
  const parsed = ipaddr.parse(address);
  // An IPv6 address that carries an IPv4 one is judged by the IPv4 address: it can lead there.
  const carried = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : null;
  const ip = carried ?? parsed;
  const what = carried ? `${address} (carrying ${carried.toString()})` : address;
  if (METADATA_ADDRESSES.includes(ip.toNormalizedString())) return { allowed: false, reason: `${what} is a cloud metadata address` };
  const range = ip.range();
  if (range === 'unicast') return { allowed: true };
  if (env === 'sandbox' && !SANDBOX_REFUSED_RANGES.has(range)) return { allowed: true };
  return { allowed: false, reason: `${what} is a ${range} address` };
}

/** Parses and checks a webhook URL's form (not its addresses). */
export function parseWebhookUrl(raw: unknown, env: PaymentsEnv): URL {
  const refuse = (issue: string) => AppError.invalidField('url', issue);
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
async function resolveHost(url: URL): Promise<string[]> {
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
