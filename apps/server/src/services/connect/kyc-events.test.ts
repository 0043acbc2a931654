import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@connect/db';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { OutboxRepository } from '../../events/repository.ts';
import { settleSandboxCheck } from './testing.ts';

/** identity.verified: announced with the status change to VERIFIED, once; never for a check that failed. */
describe('identity verification announcement', () => {
  let t: TestContext;
  // A long sandbox delay: checks are settled by moving them into the past.
  beforeAll(async () => {
    t = await createTestApp({ KYC_SANDBOX_DELAY_MS: '3600000' });
  });
  afterAll(() => t?.close());

  async function checkedUser(document: { documentFirstName: string; outcome: 'clear' | 'consider' }) {
    const session = await signInAs(t);
    const status = await settleSandboxCheck(t, session, document);
    const [user] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
    return { ...session, accountId: user!.accountId, status };
  }
  const announced = async (userId: string) =>
    (await new OutboxRepository(t.db.db).ofType('identity.verified')).filter((e) => e.payload.userId === userId);

  it('announces a check that settles VERIFIED, once', async () => {
    const user = await checkedUser({ documentFirstName: 'Ada', outcome: 'clear' });
    expect(user.status).toBe('VERIFIED');
    const again = await t.app.inject({ method: 'GET', url: '/api/connect/kyc/status', headers: user.headers });
    expect(again.json<{ status: string }>().status).toBe('VERIFIED');
    expect((await announced(user.sub)).map((event) => [event.accountId, event.payload])).toEqual([
      [user.accountId, { userId: user.sub, accountId: user.accountId }],
    ]);
  });

  it('announces nothing for a rejected document or a name mismatch', async () => {
    const rejected = await checkedUser({ documentFirstName: 'Ada', outcome: 'consider' });
    const mismatch = await checkedUser({ documentFirstName: 'Augusta', outcome: 'clear' });
    expect([rejected.status, mismatch.status]).toEqual(['FAILED', 'FAILED']);
    expect(await announced(rejected.sub)).toEqual([]);
    expect(await announced(mismatch.sub)).toEqual([]);
  });
});
