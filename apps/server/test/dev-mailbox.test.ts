import { afterAll, describe, expect, it } from 'vitest';
import { ZRuntimeConfig } from '@connect/shared';
import { createTestApp, type TestContext } from './helpers.ts';

/** Issue 3 §6: the dev mailbox exists only when the server is not in production mode. */
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
    return { config, outbox };
  }

  it('is served outside production, and the SPA is told so', async () => {
    const { config, outbox } = await appIn('development');
    expect(config.devMailbox).toBe(true);
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json()).toEqual({ messages: [] });
  });

  it('does not exist in production, and the SPA hides it', async () => {
    const { config, outbox } = await appIn('production');
    expect(config.devMailbox).toBe(false);
    expect(outbox.statusCode).toBe(404);
  });
});
