import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Who the client is, for the checks that must not be talked round (issue 27 §5). `request.ip` is
 * the client as the logs and rate limits see it, which TRUST_PROXY lets a proxy name; a check that
 * grants something to this machine reads the socket's peer instead, which nothing in the request
 * can change.
 */

/** The headers a proxy adds when it forwards a request for someone else. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`, how a dual-stack socket reports it). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const unmapped = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (isIP(unmapped) === 4) return unmapped.startsWith('127.');
  return unmapped === '::1' || unmapped === '0:0:0:0:0:0:0:1';
}

/**
 * Whether a request comes from this machine: its socket's peer is a loopback address and it was
 * not forwarded for someone else (a reverse proxy on this machine connects from loopback on behalf
 * of remote clients, and says so in a forwarding header).
 */
export function isLoopbackClient(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}
