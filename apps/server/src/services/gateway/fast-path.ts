import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { RawHandler } from '../../types.ts';
import type { Decision, Forward, GatewayDecider } from './decision.ts';
import type { Upstream } from './forward.ts';

/** Set on a request the fast path read and then handed to Fastify: its body, for the route's preParsing hook. */
const PREREAD_BODY = Symbol('gateway: body read by the fast path');
/** Set with it when the fast path has decided the request: the route carries the decision out. */
const DECISION = Symbol('gateway: decision made by the fast path');
/** Set when the fast path forwarded the request and the network gave no answer: the route answers the problem. */
const RELAY_ERROR = Symbol('gateway: the fast path forward failed');
type PrereadRequest = IncomingMessage & {
  [PREREAD_BODY]?: Buffer;
  [DECISION]?: Decision | Promise<Decision>;
  [RELAY_ERROR]?: unknown;
};

const PREFIX = '/api/gateway/';
/** A call the fast path can answer is a few dozen bytes; anything longer goes the whole way. */
const MAX_BODY_BYTES = 4_096;
/** What Fastify accepts as the route's networkId (its schema), less what the router would read differently. */
const NETWORK = /^[^/?#%]{1,100}$/;

/**
 * The gateway's fast path: `POST /api/gateway/{network}` answered by the server's request
 * listener, before Fastify's request pipeline, because it measured faster (bench/gateway.ts; the
 * figures are in docs/benchmarks.md). It asks the gateway's one decision (decision.ts) and carries
 * out what a request decided from this node's memory comes to (a cached token of a secret known
 * valid, a route known to forward, an allowance left): a shared answer (see SharedAnswers), or a
 * forward whose every call goes as it came (`relay`, the route's own). It answers exactly what the
 * route would (status, body, content type, x-request-id; x-gateway-cache: hit for a shared
 * answer); the decision and the relay have counted the call.
 *
 * A request the decision cannot admit without waiting (an unknown token, a route not read yet) or
 * refuses at admission, another method or URL, a long or chunked body: left to Fastify
 * untouched. A body read here whose decision is anything else (a refusal, a forward with refused
 * calls or a log range to bound, a rate limit counted in Redis) goes on to the route with the
 * decision, which carries it out without deciding again; so does a forward the network did not
 * answer (the route answers its problem). The body reaches the route through `replayBody` (its
 * preParsing hook). Tested over real sockets in fast-path.test.ts; `app.inject()` never reaches it.
 */
export function gatewayFastPath(
  decider: Pick<GatewayDecider, 'admit' | 'decide'>,
  relay: (decision: Forward) => Promise<Upstream | null>,
): RawHandler {
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
    const admission = decider.admit(req.headers.authorization, network, false);
    if (admission?.kind !== 'admitted') return false;

    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const preread = req as PrereadRequest;
      preread[PREREAD_BODY] = body;
      // A body that is not the declared length is Fastify's to refuse (it compares the two).
      if (size !== length) return next(req, res);
      const decision = decider.decide(admission, body);
      if (
        decision instanceof Promise ||
        decision.kind === 'refuse' ||
        (decision.kind === 'forward' && decision.screening)
      ) {
        preread[DECISION] = decision;
        return next(req, res);
      }
      if (decision.kind === 'answer') return send(req, res, 200, SHARED_TYPE, decision.answer, true);
      relay(decision).then(
        (upstream) =>
          upstream ? send(req, res, upstream.status, upstream.contentType, upstream.body, false) : send(req, res, 204),
        (error: unknown) => {
          preread[RELAY_ERROR] = error;
          next(req, res);
        },
      );
    });
    return true;
  };
}

const SHARED_TYPE = 'application/json; charset=utf-8';

/**
 * The route's answer, as Fastify writes it: the status, x-request-id, and the body with its type.
 * A string body (a shared answer) goes out with the headers in one write (Node.js joins them),
 * a Buffer in a writev of the two.
 */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType?: string,
  body?: string | Buffer,
  shared = false,
): void {
  const id = req.headers['x-request-id'];
  const headers: Record<string, string | number> = { 'x-request-id': typeof id === 'string' && id ? id : randomUUID() };
  if (shared) headers['x-gateway-cache'] = 'hit';
  if (body !== undefined) {
    headers['content-type'] = contentType!;
    headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  }
  res.writeHead(status, headers);
  res.end(body);
}

/** The gateway route's preParsing step: the body the fast path already read, as the payload stream. */
export function replayBody<P extends Readable>(raw: IncomingMessage, payload: P): P {
  const body = (raw as PrereadRequest)[PREREAD_BODY];
  if (!body) return payload;
  // Fastify compares the bytes it reads with content-length through this count.
  return Object.assign(Readable.from([body]), { receivedEncodedLength: body.length }) as unknown as P;
}

/** The decision the fast path made for this request, if it made one (the route then does not decide again). */
export function fastPathDecision(raw: IncomingMessage): Decision | Promise<Decision> | undefined {
  return (raw as PrereadRequest)[DECISION];
}

/** Why the fast path's forward of this request got no answer from the network, if it did not (the route answers it). */
export function fastPathRelayError(raw: IncomingMessage): unknown {
  return (raw as PrereadRequest)[RELAY_ERROR];
}
