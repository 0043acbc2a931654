import { afterAll, describe, expect, it } from 'vitest';
import { ZRuntimeConfig } from '@connect/shared';
import { createTestApp, type TestContext } from './helpers.ts';

/** Issue 3 §6: the dev mailbox (and the development clock of issue 16) exist only outside production. */
describe('dev mailbox', () => {
  const apps: TestContext[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
  });

  async function appIn(nodeEnv: string) {
    const t = await createTestApp({ NODE_ENV: nodeEnv });
    apps.push(t);
    const config = ZRuntimeConfig.parse((await t.app.inject({ method: 'GET', url: '/runtime-config.json' })).json());
    const outbox = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ada@example.com' });
    const clock = await t.app.inject({ method: 'POST', url: '/api/dev/billing/run', payload: {} });
    return { config, outbox, clock };
  }

  it('is served outside production, and the SPA is told so', async () => {
    const { config, outbox, clock } = await appIn('development');
    expect(config.devMailbox).toBe(true);
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json()).toEqual({ messages: [] });
    // The development clock (plans' periods and card charges) is a development tool as well.
    expect(clock.statusCode).toBe(200);
    expect(clock.json()).toMatchObject({ periods: { periodsEnded: 0 }, charges: { charged: 0, failed: 0 } });
  });

  it('does not exist in production, and the SPA hides it', async () => {
    const { config, outbox, clock } = await appIn('production');
    expect(config.devMailbox).toBe(false);
    expect(outbox.statusCode).toBe(404);
    expect(clock.statusCode).toBe(404);
  });
});
