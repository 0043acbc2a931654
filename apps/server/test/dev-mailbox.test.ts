import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZRuntimeConfig } from '@connect/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { PRODUCTION_ENV } from './production-env.ts';

type Client = { remoteAddress?: string; headers?: Record<string, string> };

/** Every development helper (/api/dev/*), as a client calls it. */
async function devHelpers(t: TestContext, client: Client = {}) {
  const as = {
    ...(client.remoteAddress ? { remoteAddress: client.remoteAddress } : {}),
    headers: client.headers ?? {},
  };
  const config = ZRuntimeConfig.parse(
    (await t.app.inject({ method: 'GET', url: '/runtime-config.json', ...as })).json(),
  );
  const outbox = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ada@example.com', ...as });
  const clock = await t.app.inject({ method: 'POST', url: '/api/dev/billing/run', payload: {}, ...as });
  const close = await t.app.inject({ method: 'POST', url: '/api/dev/billing/close-period', payload: {}, ...as });
  return { config, outbox, clock, close };
}

/** Issue 3 §6: the dev mailbox (and the development clock of issue 16) exist only outside production. */
describe('dev mailbox', () => {
  const apps: TestContext[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
  });

  async function appIn(env: Record<string, string>) {
    const t = await createTestApp(env);
    apps.push(t);
    return devHelpers(t);
  }

  it('is served outside production, and the SPA is told so', async () => {
    const { config, outbox, clock, close } = await appIn({ NODE_ENV: 'development' });
    expect(config.devMailbox).toBe(true);
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json()).toEqual({ messages: [] });
    // The development clock (plans' periods and card charges) is a development tool as well.
    expect(clock.statusCode).toBe(200);
    expect(clock.json()).toMatchObject({ periods: { periodsEnded: 0 }, charges: { charged: 0, failed: 0 } });
    expect(close.statusCode).toBe(200);
  });

  it('does not exist in production, and the SPA hides it', async () => {
    const { config, outbox, clock, close } = await appIn(PRODUCTION_ENV);
    expect(config.devMailbox).toBe(false);
    expect(outbox.statusCode).toBe(404);
    expect(clock.statusCode).toBe(404);
    expect(close.statusCode).toBe(404);
  });
});

/**
 * Issue 27 §5: the server listens on every interface by default, and a password-reset code read
 * from the mailbox is an account taken over. Development helpers answer loopback clients only,
 * judged by the socket's peer address, never by what the request says about itself.
 */
describe('development helpers answer loopback clients only', () => {
  let t: TestContext;
  let proxied: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'development' });
    // A proxy on the LAN is trusted: its X-Forwarded-For names the client (request.ip).
    proxied = await createTestApp({ NODE_ENV: 'development', TRUST_PROXY: '192.168.1.1' });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), proxied?.close()]);
  });

  const refused = (helpers: Awaited<ReturnType<typeof devHelpers>>) => {
    expect(helpers.outbox.statusCode).toBe(404);
    expect(helpers.clock.statusCode).toBe(404);
    expect(helpers.close.statusCode).toBe(404);
    expect(helpers.config.devMailbox).toBe(false);
  };

  it('answers this machine, over IPv4 and IPv6', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const { config, outbox } = await devHelpers(t, { remoteAddress });
      expect(outbox.statusCode, remoteAddress).toBe(200);
      expect(config.devMailbox).toBe(true);
    }
  });

  it('does not exist for a client on the LAN', async () => {
    refused(await devHelpers(t, { remoteAddress: '192.168.1.20' }));
  });

  it('is not opened by a LAN client claiming to be this machine in X-Forwarded-For', async () => {
    refused(
      await devHelpers(t, {
        remoteAddress: '192.168.1.20',
        headers: { 'x-forwarded-for': '127.0.0.1', forwarded: 'for=127.0.0.1', 'x-real-ip': '127.0.0.1' },
      }),
    );
    // Not even through a trusted proxy, where request.ip believes the header.
    refused(await devHelpers(proxied, { remoteAddress: '192.168.1.1', headers: { 'x-forwarded-for': '127.0.0.1' } }));
  });

  it('is not served to a client forwarded by a proxy on this machine', async () => {
    // The socket is loopback, but the request was forwarded for someone else.
    refused(await devHelpers(t, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '192.168.1.20' } }));
    refused(await devHelpers(t, { remoteAddress: '127.0.0.1', headers: { forwarded: 'for=192.168.1.20' } }));
  });
});
