import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { kycChecks, mailOutbox, notifications, notificationSettings, users } from '@connect/db';
import type { TUpdateUserRequest } from '@connect/shared';
import type { signInAs, TestContext } from '../../../test/helpers.ts';
import { newPlanUser, type PlanUser } from '../account-plan/testing.ts';

/** Test set-up shared by the connect suites (not used by the app). */

/** A complete profile, named Ada Lovelace. */
export const TEST_PROFILE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines Ltd',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '11-50',
  hearAboutUs: 'SEARCH_ENGINE',
} satisfies TUpdateUserRequest;

/**
 * Gives the user TEST_PROFILE and a sandbox identity check of a document with these first names
 * (last name Lovelace) and outcome, then moves the check into the past, so the status read it
 * answers settles it (the app's KYC_SANDBOX_DELAY_MS must be long). Answers that status.
 */
export async function settleSandboxCheck(
  t: TestContext,
  session: Awaited<ReturnType<typeof signInAs>>,
  document: { documentFirstName: string; outcome: 'clear' | 'consider' },
): Promise<string> {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/connect${url}`, headers: session.headers, ...(payload ? { payload } : {}) });
  expect((await call('PUT', '/user', TEST_PROFILE)).statusCode).toBe(200);
  const started = await call('POST', '/kyc/create-check', { sandbox: { ...document, documentLastName: 'Lovelace' } });
  expect(started.statusCode, started.body).toBe(200);
  await t.db.db
    .update(kycChecks)
    .set({ createdAt: sql`${kycChecks.createdAt} - interval '2 hours'` })
    .where(eq(kycChecks.userId, session.sub));
  const status = await call('GET', '/kyc/status');
  expect(status.statusCode, status.body).toBe(200);
  return status.json<{ status: string }>().status;
}

/**
 * The account notices' audience: a user on a plan and a second member of the account who keeps
 * notification emails off (account notices are mailed anyway); what each finds in the bell and the outbox.
 */
export function accountNotices(t: () => TestContext) {
  return {
    async accountWithMember(): Promise<{ owner: PlanUser; member: { id: string; email: string } }> {
      const owner = await newPlanUser(t());
      const member = { id: randomUUID(), email: `member-${randomUUID()}@example.com` };
      await t()
        .db.db.insert(users)
        .values({ ...member, accountId: owner.accountId, role: 'INDIVIDUAL' });
      await t().db.db.insert(notificationSettings).values({ userId: member.id, emailEnabled: false });
      return { owner, member };
    },
    bell: (userId: string, kind: string) =>
      t()
        .db.db.select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .then((rows) => rows.filter((row) => row.kind === kind)),
    mails: (email: string) => t().db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)),
  };
}
