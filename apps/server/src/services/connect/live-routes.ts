import { PassThrough } from 'node:stream';
import { unauthorized, ProblemError } from '../../lib/errors.ts';
import type { App, Deps } from '../../types.ts';
import { liveHubOf, type LiveChange } from './live-hub.ts';

/**
 * How often each node checks that its streams' sessions still hold (signed out, revoked, expired:
 * the stream ends), and how long a stream may stay silent before a heartbeat comment is sent (a
 * proxy's idle timeout must not cut it, and a client notices a dead connection). Read on every
 * check, so tests may shorten them.
 */
export const LIVE_TIMING = { checkMs: 1_000, heartbeatMs: 15_000 };

/** One open stream of this app. */
type OpenStream = {
  token: string;
  lastWriteAt: number;
  write: (frame: string) => void;
  end: (code: string) => void;
};

/** A Server-Sent Events frame: `event` and one line of JSON data. */
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * GET /api/connect/live: the caller's account's changes as Server-Sent Events, read by the SPA with
 * `fetch` and its bearer token in the Authorization header (never the token in a URL; an
 * EventSource cannot send the header). Authenticated by the access plugin like every 'user'
 * route. Frames:
 * - `ready` once the node hears the account's changes: read again what the page shows;
 * - `change` `{ type, orderId?, invoiceId?, tokenId? }`: a domain event of the account (or
 *   `resync` when changes may have been missed);
 * - `end` `{ code }` before the server ends it: the session was signed out or revoked
 *   (SESSION_SIGNED_OUT), its token expired (TOKEN_EXPIRED: connect again with a fresh one), the
 *   server is stopping (SERVER_CLOSING);
 * - a `: heartbeat` comment after LIVE_TIMING.heartbeatMs without a frame.
 * Not in the OpenAPI document: a stream that never ends has no answer to record or fuzz.
 */
export async function liveRoutes(app: App, deps: Deps) {
  const hub = liveHubOf(deps.db);
  hub.attach(deps.dbh, app.log);
  const open = new Set<OpenStream>();
  let timer: NodeJS.Timeout | undefined;
  let isChecking = false;

  /** One timer per node, for all its streams: sessions checked (no I/O: cached), heartbeats sent. */
  const check = async () => {
    if (isChecking) return;
    isChecking = true;
    try {
      const now = Date.now();
      for (const stream of [...open]) {
        try {
          await app.verifyAccessToken(stream.token);
        } catch (err) {
          stream.end(err instanceof ProblemError ? err.code : 'TOKEN_EXPIRED');
          continue;
        }
        if (now - stream.lastWriteAt >= LIVE_TIMING.heartbeatMs) stream.write(': heartbeat\n\n');
      }
    } finally {
      isChecking = false;
    }
  };
  const schedule = () => {
    if (timer || open.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void check().finally(schedule);
    }, LIVE_TIMING.checkMs);
    timer.unref?.();
  };

  app.addHook('preClose', async () => {
    clearTimeout(timer);
    timer = undefined;
    for (const stream of [...open]) stream.end('SERVER_CLOSING');
  });

  app.get('/live', { config: { access: 'user' }, schema: { hide: true } }, async (request, reply) => {
    const user = request.user;
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!user || !token) throw unauthorized();
    const body = new PassThrough();
    const subscription: { stop?: () => void } = {};
    let isEnded = false;
    const stream: OpenStream = {
      token,
      lastWriteAt: Date.now(),
      write: (text) => {
        if (isEnded) return;
        stream.lastWriteAt = Date.now();
        body.write(text);
      },
      end: (code) => {
        if (isEnded) return;
        stream.write(frame('end', { code }));
        isEnded = true;
        open.delete(stream);
        subscription.stop?.();
        body.end();
      },
    };
    // The client went away (or the answer ended): nothing more to send.
    reply.raw.once('close', () => {
      if (isEnded) return;
      isEnded = true;
      open.delete(stream);
      subscription.stop?.();
      body.destroy();
    });
    const stop = await hub.subscribe(user.accountId, (change: LiveChange) => stream.write(frame('change', change)));
    subscription.stop = stop;
    if (isEnded) stop();
    else {
      open.add(stream);
      schedule();
      stream.write(frame('ready', { heartbeatMs: LIVE_TIMING.heartbeatMs }));
    }
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store, no-transform')
      .header('x-accel-buffering', 'no')
      .send(body);
  });
}
