import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * Requests this server makes to addresses it was given (a custom-llm endpoint; webhooks
 * later) must not reach the server's own network: loopback, link-local (cloud metadata at
 * 169.254.169.254), private, carrier-grade NAT, unique-local and other non-public ranges.
 * The check runs on the address actually connected to, in the socket's DNS lookup, so a
 * name that resolves to a public address when checked and a private one when used (DNS
 * rebinding) is refused too. Operators who run their model on their own network allow it
 * with OUTBOUND_ALLOW_PRIVATE=true.
 */

export class OutboundAddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(
      `${host} is ${host === address ? '' : `at ${address}, `}a ${RANGE_WORDS[range] ?? range} address; ` +
        'this server does not send requests to private networks (set OUTBOUND_ALLOW_PRIVATE=true to allow them).',
    );
    this.name = 'OutboundAddressRefused';
  }
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private-network',
  linkLocal: 'link-local',
  uniqueLocal: 'private-network (unique local)',
  unspecified: 'unspecified',
  carrierGradeNat: 'carrier-grade NAT',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

/** The range of an IP address that makes it off limits, or null for a public unicast one. */
export function forbiddenRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'unparseable';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

/** `dns.lookup` that refuses non-public answers: the socket only ever connects to checked addresses. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    for (const { address } of list) {
      const range = forbiddenRange(address);
      if (range !== null)
        return callback(new OutboundAddressRefused(hostname, address, range), '', 0);
    }
    if (options.all === true) {
      // The overload with all: true answers the whole list.
      (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, list);
      return;
    }
    const first = list[0];
    if (first === undefined) return callback(new Error(`${hostname} has no address`), '', 0);
    callback(null, first.address, first.family);
  });
};

export interface OutboundOptions {
  /** Allow loopback, link-local and private addresses (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

export type OutboundFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A `fetch` for URLs that came from users of this server. With `allowPrivate` it is plain
 * fetch; otherwise a request to a non-public address fails with a TypeError whose cause
 * is an {@link OutboundAddressRefused}, as fetch reports any connection failure.
 */
export function createOutboundFetch(options: OutboundOptions): {
  fetch: OutboundFetch;
  close: () => Promise<void>;
} {
  if (options.allowPrivate) {
    return { fetch: (url, init) => globalThis.fetch(url, init), close: async () => undefined };
  }
  const agent = new Agent({ connect: { lookup: publicOnlyLookup } });
  const guarded: OutboundFetch = async (url, init) => {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    // An address written as a literal is connected to without a lookup: check it here.
    if (isIP(host) !== 0) {
      const range = forbiddenRange(host);
      if (range !== null) {
        throw new TypeError('fetch failed', {
          cause: new OutboundAddressRefused(host, host, range),
        });
      }
    }
    // undici's fetch is the implementation behind Node's global one; its Request/Response
    // types are declared separately from the DOM lib's, hence the casts at this boundary.
    const response = await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    });
    return response as unknown as Response;
  };
  return { fetch: guarded, close: () => agent.close() };
}
