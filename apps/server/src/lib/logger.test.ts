import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { logging, readableLine } from './logger.ts';

describe('development logs', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t?.close();
    t = undefined;
  });

  /** The app as `npm start` builds it (NODE_ENV=development, its own logger), its stdout captured. */
  async function startLogging(env: Record<string, string>) {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    t = await createTestApp({ LOG_LEVEL: 'info', ...env }, { logger: undefined });
    lines.length = 0; // start-up records
    return lines;
  }

  it('writes one readable line per request, none for the health check or the SPA files', async () => {
    const lines = await startLogging({ NODE_ENV: 'development' });
    await t!.app.inject({ method: 'GET', url: '/api/health' });
    await t!.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    await t!.app.inject({ method: 'GET', url: '/dashboard' });
    await t!.app.inject({ method: 'GET', url: '/api/connect/user/me' });

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/api\/connect\/user\/me 401 \d+\.\d ms\n$/);
  });

  it('still shows a file that is not found', async () => {
    const lines = await startLogging({ NODE_ENV: 'development' });
    await t!.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(lines).toEqual([expect.stringMatching(/ GET \/assets\/missing\.js 404 /)]);
  });

  it('leaves production and tests to pino’s JSON lines, with Fastify’s request records', () => {
    for (const env of ['production', 'test']) {
      expect(logging({ env, logLevel: 'info' })).toEqual({ logger: { level: 'info' } });
    }
  });
});

describe('readableLine', () => {
  it('shows the message, the fields a reader needs and the stack of an error', () => {
    const line = readableLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 0, 1, 12, 3, 4, 567),
        pid: 1,
        hostname: 'h',
        reqId: 'r',
        tokenId: 't-1',
        err: { message: 'boom', stack: 'Error: boom\n    at here' },
        msg: 'deployment attempt failed',
      }),
    );
    expect(line).toBe('12:03:04.567 WARN  deployment attempt failed tokenId=t-1\n    Error: boom\n        at here\n');
  });
});
