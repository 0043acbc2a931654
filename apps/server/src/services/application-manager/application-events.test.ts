import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZRotateSecretResponse } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { OutboxRepository } from '../../events/repository.ts';
import { activate, addNetwork, createApplication, newAppUser, rotateSecret } from './testing.ts';

/** application.registered and application.secret_rotated: announced with their change, never for a refused one. */
describe('application manager announcements', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('announces a registration and a rotation in their transactions; refused ones announce nothing', async () => {
    const [user, stranger] = [await newAppUser(t), await newAppUser(t)];
    const [active, inactive] = [await addNetwork(t), await addNetwork(t)];
    await activate(t, user.accountId, active.id);
    const outbox = new OutboxRepository(t.db.db);
    const announced = async () => ({
      registered: (await outbox.ofType('application.registered')).filter((e) => e.accountId === user.accountId),
      rotated: (await outbox.ofType('application.secret_rotated')).filter((e) => e.accountId === user.accountId),
    });

    await expect(createApplication(t, user, [inactive.id])).rejects.toThrow(/400/);
    const app = await createApplication(t, user, [active.id], 'Announced app');
    await expect(createApplication(t, user, [active.id], 'Announced app')).rejects.toThrow(/409/);
    expect((await rotateSecret(t, stranger, app.id, 60)).statusCode).toBe(404);
    const rotated = ZRotateSecretResponse.parse((await rotateSecret(t, user, app.id, 60)).json());
    expect((await rotateSecret(t, user, app.id, 0)).statusCode).toBe(200);

    const { registered, rotated: rotations } = await announced();
    expect(registered.map((e) => e.payload)).toEqual([
      {
        accountId: user.accountId,
        userId: user.sub,
        applicationId: app.id,
        clientId: app.clientId,
        name: 'Announced app',
        applicationType: 'testnet',
      },
    ]);
    const expiring = rotated.application.secrets.find((secret) => secret.status === 'EXPIRING')!;
    expect(rotations.map((e) => e.payload)).toEqual([
      { accountId: user.accountId, userId: user.sub, applicationId: app.id, graceEndsAt: expiring.expiresAt },
      { accountId: user.accountId, userId: user.sub, applicationId: app.id, graceEndsAt: null },
    ]);
  });
});
