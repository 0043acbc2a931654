import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycChecks, users } from '@connect/db';
import type { TUpdateUserRequest } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { OutboxRepository } from '../../events/repository.ts';

const PROFILE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines Ltd',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '11-50',
  hearAboutUs: 'SEARCH_ENGINE',
} satisfies TUpdateUserRequest;

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
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/connect${url}`, headers: session.headers, ...(payload ? { payload } : {}) });
    expect((await call('PUT', '/user', PROFILE)).statusCode).toBe(200);
    const started = await call('POST', '/kyc/create-check', { sandbox: { ...document, documentLastName: 'Lovelace' } });
    expect(started.statusCode, started.body).toBe(200);
    await t.db.db
      .update(kycChecks)
      .set({ createdAt: sql`${kycChecks.createdAt} - interval '2 hours'` })
      .where(eq(kycChecks.userId, session.sub));
    const status = async () => (await call('GET', '/kyc/status')).json<{ status: string }>().status;
    const [user] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
    return { ...session, accountId: user!.accountId, status };
  }
  const announced = async (userId: string) =>
    (await new OutboxRepository(t.db.db).ofType('identity.verified')).filter((e) => e.payload.userId === userId);

  it('announces a check that settles VERIFIED, once', async () => {
    const user = await checkedUser({ documentFirstName: 'Ada', outcome: 'clear' });
    expect(await user.status()).toBe('VERIFIED');
    expect(await user.status()).toBe('VERIFIED');
    expect((await announced(user.sub)).map((event) => [event.accountId, event.payload])).toEqual([
      [user.accountId, { userId: user.sub, accountId: user.accountId }],
    ]);
  });

  it('announces nothing for a rejected document or a name mismatch', async () => {
    const rejected = await checkedUser({ documentFirstName: 'Ada', outcome: 'consider' });
    const mismatch = await checkedUser({ documentFirstName: 'Augusta', outcome: 'clear' });
    expect([await rejected.status(), await mismatch.status()]).toEqual(['FAILED', 'FAILED']);
    expect(await announced(rejected.sub)).toEqual([]);
    expect(await announced(mismatch.sub)).toEqual([]);
  });
});
