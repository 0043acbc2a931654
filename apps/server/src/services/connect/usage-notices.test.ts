import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDeliveries, outboxEvents } from '@connect/db';
import { PLAN_TERMS } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan } from '../../../test/plans.ts';
import type { DomainEvents } from '../../events/catalogue.ts';
import { capCrossedNotice } from './account-notice-texts.ts';
import { accountNotices } from './testing.ts';

/** Issue 17 §3: spending caps crossed and credits run down by metered use reach every member, in the bell and by email, once. */
describe('usage notices: spending caps and credits used by metered calls', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const { accountWithMember, bell, mails } = accountNotices(() => t);

  async function emitAndDrain<K extends keyof DomainEvents>(type: K, payload: DomainEvents[K]): Promise<string> {
    const id = await t.app.events.emit(t.db.db, type, payload);
    await t.app.events.drain();
    await t.app.events.drain();
    return id;
  }
  /** Delivered again from scratch: the node lost its records (the worst case of at least once). */
  async function redeliver(eventId: string) {
    await t.db.db.delete(eventDeliveries).where(eq(eventDeliveries.eventId, eventId));
    await t.db.db
      .update(outboxEvents)
      .set({ dispatchedAt: null, lockedUntil: null })
      .where(eq(outboxEvents.id, eventId));
    await t.app.events.drain();
    await t.app.events.drain();
  }
  const crossed = (accountId: string, threshold: 85 | 100): DomainEvents['usage.cap_crossed'] => ({
    accountId,
    applicationId: randomUUID(),
    applicationName: 'Shop',
    month: '2026-11-01',
    threshold,
    capCredits: 1_000,
    usedCredits: threshold === 85 ? 850.5 : 1_000.02,
  });

  it('a cap crossed at 85 % and 100 %: every member is told and emailed once each, however often it is delivered', async () => {
    const { owner, member } = await accountWithMember();
    const warned = await emitAndDrain('usage.cap_crossed', crossed(owner.accountId, 85));
    const reached = await emitAndDrain('usage.cap_crossed', crossed(owner.accountId, 100));
    await redeliver(warned);
    await redeliver(reached);
    for (const [userId, email] of [
      [owner.sub, owner.email],
      [member.id, member.email],
    ] as const) {
      const told = await bell(userId, 'usage.cap');
      expect(told.map((n) => [n.title, n.link]).sort()).toEqual([
        ['Shop has used 85 % of its monthly cap', '/usage'],
        ['Shop reached its monthly cap', '/usage'],
      ]);
      const mailed = await mails(email);
      expect(mailed.map((m) => m.subject).sort()).toEqual([
        'Shop has used 85 % of its monthly cap',
        'Shop reached its monthly cap',
      ]);
      expect(mailed.find((m) => m.subject.includes('reached'))!.textBody).toContain('http://localhost/usage');
    }
  });

  it('says what the cap means: used and cap credits, and the day calls are served again', () => {
    expect(capCrossedNotice(crossed(randomUUID(), 85)).body).toBe(
      'Shop has used 85 % of its monthly cap: 850.5 of its 1,000 credits this month. At 100 % its calls are refused until you raise the cap or the month turns.',
    );
    expect(capCrossedNotice(crossed(randomUUID(), 100)).body).toBe(
      'Shop reached its monthly cap: its calls are refused until you raise the cap or the month turns (1 December). It has used 1,000.02 of its 1,000 credits this month.',
    );
    expect(capCrossedNotice({ ...crossed(randomUUID(), 100), month: '2026-12-01' }).body).toContain('(1 January)');
  });

  const charged = (accountId: string, availableBefore: number, availableAfter: number) => ({
    accountId,
    billedHour: '2026-11-26T10:00:00.000Z',
    credits: availableBefore - availableAfter,
    availableBefore,
    availableAfter,
  });
  const threshold = PLAN_TERMS.lowCreditsThreshold;

  it('metered use on a prepaid plan: warns once when the credits run low, and once when they are used up', async () => {
    const { owner, member } = await accountWithMember();
    // Above the threshold after: nothing. Across it: low. Below it, still above 0: nothing more.
    await emitAndDrain('usage.charged', charged(owner.accountId, threshold + 50, threshold + 1));
    const low = await emitAndDrain('usage.charged', charged(owner.accountId, threshold + 1, threshold - 0.456));
    await emitAndDrain('usage.charged', charged(owner.accountId, threshold - 0.456, 1));
    const usedUp = await emitAndDrain('usage.charged', charged(owner.accountId, 1, -0.25));
    await emitAndDrain('usage.charged', charged(owner.accountId, -0.25, -3));
    await redeliver(low);
    await redeliver(usedUp);
    for (const [userId, email] of [
      [owner.sub, owner.email],
      [member.id, member.email],
    ] as const) {
      const told = await bell(userId, 'credits.low');
      expect(told.map((n) => n.title).sort()).toEqual(['Your credits are running low', 'Your credits are used up']);
      expect(told.find((n) => n.title === 'Your credits are running low')!.body).toContain(
        `You have ${Math.floor((threshold - 0.456) * 100) / 100} credits left.`,
      );
      expect(told.find((n) => n.title === 'Your credits are used up')!.body).toContain(
        'metered use beyond your balance is taken from the next credits you buy',
      );
      expect((await mails(email)).map((m) => m.subject).sort()).toEqual([
        'Your credits are running low',
        'Your credits are used up',
      ]);
    }
  });

  it('one charge from plenty to nothing tells only that the credits are used up', async () => {
    const { owner } = await accountWithMember();
    await emitAndDrain('usage.charged', charged(owner.accountId, threshold + 100, 0));
    expect((await bell(owner.sub, 'credits.low')).map((n) => n.title)).toEqual(['Your credits are used up']);
  });

  it('pay as you go: its use is billed at the month’s end, so no credit warnings', async () => {
    const { owner } = await accountWithMember();
    await putOnPlan(t.db.db, owner.accountId, 'payg-standard');
    await emitAndDrain('usage.charged', charged(owner.accountId, threshold + 1, threshold - 1));
    await emitAndDrain('usage.charged', charged(owner.accountId, threshold - 1, -5));
    expect(await bell(owner.sub, 'credits.low')).toEqual([]);
    expect((await mails(owner.email)).filter((m) => /credits/i.test(m.subject))).toEqual([]);
  });
});
