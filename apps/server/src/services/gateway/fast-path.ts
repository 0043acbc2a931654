import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { RawHandler } from '../../types.ts';
import type { GatewayRoute } from './state.ts';

/** A gateway route that forwards (the only kind the fast path serves). */
export type OpenRoute = Extract<GatewayRoute, { kind: 'ok' }>;

/** Set on a request the fast path read and then handed to Fastify: its body, for the route's preParsing hook. */
const PREREAD_BODY = Symbol('gateway: body read by the fast path');
type PrereadRequest = IncomingMessage & { [PREREAD_BODY]?: Buffer };

const PREFIX = '/api/gateway/';
/** A call the fast path can answer is a few dozen bytes; anything longer goes the whole way. */
const MAX_BODY_BYTES = 4_096;
/** What Fastify accepts as the route's networkId (its schema), less what the router would read differently. */
const NETWORK = /^[^/?#%]{1,100}$/;

/** What the fast path asks of the gateway: only this node's memory, never a wait. */
export type FastPathParts = {
  /** The caller's application when this node already knows its token and secret are good. */
  application(authorization: string | undefined): string | undefined;
  /** The route of an application to a network when this node knows it forwards. */
  route(applicationId: string, network: string): OpenRoute | undefined;
  /** The shared answer to the body (a single call whose answer is shared and fresh), else null. */
  answer(route: OpenRoute, body: Buffer): Buffer | null;
  /** Takes one call from the account's per-network allowance; false when it is used up. */
  take(route: OpenRoute): boolean;
  /** Counts the call in the application's daily usage. */
  record(applicationId: string, route: OpenRoute): void;
};

/**
 * The gateway's fast path: `POST /api/gateway/{network}` answered from this node's memory, before
 * Fastify's request pipeline. It serves only the request whose every step is already known here —
 * a cached token of a secret known valid, a route known to forward, a shared answer that is fresh
 * (see SharedAnswers), an allowance left — and answers exactly what the route would (status,
 * body, content type, x-request-id, x-gateway-cache: hit), counting the call the same way.
 * Anything else — another method or URL, a long or chunked body, an unknown token, a miss, a
 * refusal — goes on to Fastify unchanged; a body the fast path has already read is handed to the
 * route by `replayBody` (its preParsing hook). Tested over real sockets in fast-path.test.ts;
 * `app.inject()` never reaches it.
 */
export function gatewayFastPath(parts: FastPathParts): RawHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return false;
    const url = req.url;
    if (!url?.startsWith(PREFIX)) return false;
    const network = url.slice(PREFIX.length);
    if (!NETWORK.test(network)) return false;
    const type = req.headers['content-type'];
    if (type !== 'application/json' && !type?.startsWith('application/json;')) return false;
    // Only a short body of a declared length: nothing unbounded is read before Fastify's limits.
    const length = Number(req.headers['content-length']);
    if (!(length > 0 && length <= MAX_BODY_BYTES) || req.headers['transfer-encoding']) return false;
    const applicationId = parts.application(req.headers.authorization);
    if (!applicationId) return false;
    const route = parts.route(applicationId, network);
    if (!route) return false;

    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const answer = size === length ? parts.answer(route, body) : null;
      if (!answer || !parts.take(route)) {
        // The route decides (forward, 429, 400 …); it reads the body from here.
        (req as PrereadRequest)[PREREAD_BODY] = body;
        next(req, res);
        return;
      }
      parts.record(applicationId, route);
      sendAnswer(req, res, answer);
    });
    return true;
  };
}

function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: Buffer): void {
  const id = req.headers['x-request-id'];
  res.writeHead(200, {
    'x-request-id': typeof id === 'string' && id ? id : randomUUID(),
    'x-gateway-cache': 'hit',
    'content-type': 'application/json; charset=utf-8',
    'content-length': answer.length,
  });
  res.end(answer);
}

/** The gateway route's preParsing step: the body the fast path already read, as the payload stream. */
export function replayBody<P extends Readable>(raw: IncomingMessage, payload: P): P {
  const body = (raw as PrereadRequest)[PREREAD_BODY];
  if (!body) return payload;
  // Fastify compares the bytes it reads with content-length through this count.
  return Object.assign(Readable.from([body]), { receivedEncodedLength: body.length }) as unknown as P;
}
