// Who is asking, as the mail budgets count it: the client's network rather than its single
// address, since one party easily holds a whole IPv4 /24 or an IPv6 /64 (docs/decisions/015).
import ipaddr from 'ipaddr.js';
import type { FastifyRequest } from 'fastify';
import type { Requester } from '../services/codes';

/** The requesting network of `ip`: its IPv4 /24 or IPv6 /64, as a CIDR string. */
export function networkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  if (address.kind() === 'ipv4') {
    const [a, b, c] = (address as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** The header a code flow's id travels in: the answer that mailed a code names it, and the
 *  client carries it back with the code (docs/decisions/015). */
export const CODE_FLOW_HEADER = 'x-code-flow';
/** A flow id as the server makes them (services/secrets.ts randomToken); anything else is none. */
const FLOW_ID = /^[A-Za-z0-9_-]{43}$/;

/** The requesting network and the flow id a request carries. */
export function requesterOf(request: FastifyRequest): Requester {
  const raw = request.headers[CODE_FLOW_HEADER];
  return { network: networkOf(request.ip), flow: typeof raw === 'string' && FLOW_ID.test(raw) ? raw : undefined };
}
