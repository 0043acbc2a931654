import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/*
 * What the server logs, and how. In production and in tests: pino's JSON lines, as Fastify writes
 * them (`incoming request` and `request completed` for every request), for a log collector. In
 * development (NODE_ENV=development, what `npm start` sets): lines a person reads in a terminal —
 * one per request (`GET /api/connect/user/… 200 3.1 ms`), none for the health check and the SPA's
 * files unless they fail, and every other record as its time, level, message and fields, with an
 * error's stack below it. The formatter is these few lines rather than pino-pretty: that package
 * brings fourteen more (one of them needing Node 22) and a worker thread for what this does.
 */

type Writable = { write(line: string): unknown };

/** Fastify's logger options and the controller of its request records, for this configuration. */
export type Logging = Pick<FastifyServerOptions, 'logger' | 'logController'>;

export function logging(config: Pick<Config, 'env' | 'logLevel'>, out: Writable = process.stdout): Logging {
  if (config.env !== 'development') return { logger: { level: config.logLevel } };
  return {
    logger: { level: config.logLevel, stream: { write: (line: string) => out.write(readableLine(line)) } },
    logController: new RequestLines(),
  };
}

/** Fastify's two records per request (`incoming request`, `request completed`) as one line at the end. */
class RequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && reply.statusCode < 400 && isQuiet(request.url)) return;
    const line = `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}

/** The health check (polled by load balancers and scripts) and the SPA's files (everything outside /api and /idp). */
function isQuiet(url: string): boolean {
  const pathname = url.split('?')[0]!;
  return pathname === '/api/health' || !/^\/(api|idp)(\/|$)/.test(pathname);
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's fields a reader does not need on every line. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/** One of pino's JSON lines as `12:03:04.567 INFO message key=value …`, an error's stack below. */
export function readableLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(Number(record.time)).toISOString().slice(11, 23);
  const level = (LEVELS[Number(record.level)] ?? String(record.level)).padEnd(5);
  const fields = Object.entries(record)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = record.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').replaceAll('\n', '\n    ')}` : '';
  return `${time} ${level} ${[record.msg ?? '', ...fields].join(' ')}${stack}\n`;
}
