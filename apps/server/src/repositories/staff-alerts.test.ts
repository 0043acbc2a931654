import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '@connect/db';
import { createTestApp, signInAs, testConfig, type TestContext } from '../../test/helpers.ts';
import { StaffAlertsRepository } from './staff-alerts.ts';

describe('the staff-alert channel', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ STAFF_ALERT_EMAIL: 'on-call@staff.test' });
  });
  afterAll(() => t?.close());

  it('mails STAFF_ALERT_EMAIL; unset, the administrator, else support', () => {
    expect(testConfig({ STAFF_ALERT_EMAIL: 'a@x.test', ADMIN_EMAIL: 'b@x.test' }).staffAlertEmail).toBe('a@x.test');
    expect(testConfig({ ADMIN_EMAIL: 'b@x.test', SUPPORT_EMAIL: 'c@x.test' }).staffAlertEmail).toBe('b@x.test');
    expect(testConfig({ SUPPORT_EMAIL: 'c@x.test' }).staffAlertEmail).toBe('c@x.test');
  });

  it('raises once per cause with the cause’s transaction, mails it once, and keeps the first acknowledgement', async () => {
    const alert = {
      code: 'TEST_ALERT',
      message: 'Look at this.',
      record: { type: 'thing', id: '42' },
      dedupeKey: 'k1',
    };
    // Rolled back with its cause: nothing raised, nothing mailed.
    await t.db.db
      .transaction(async (tx) => {
        await new StaffAlertsRepository(tx as never, t.app.events).raise(alert, t.app.deps.config.staffAlertEmail);
        throw new Error('the cause failed');
      })
      .catch(() => undefined);
    const alerts = new StaffAlertsRepository(t.db.db, t.app.events);
    expect(await alerts.list({ openOnly: false, limit: 10 })).toEqual([]);

    const raised = await alerts.raise(alert, t.app.deps.config.staffAlertEmail);
    expect(raised).toMatchObject({ code: 'TEST_ALERT', recordType: 'thing', recordId: '42', acknowledgedAt: null });
    expect(await alerts.raise(alert, t.app.deps.config.staffAlertEmail)).toBeNull();
    await t.app.events.drain();
    await t.app.events.drain();
    const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'on-call@staff.test'));
    expect(mails).toEqual([
      expect.objectContaining({
        kind: 'STAFF_ALERT',
        subject: 'Staff alert: TEST_ALERT',
        dedupeKey: `staff-alert:${raised!.id}`,
      }),
    ]);
    expect(mails[0]!.textBody).toContain('Look at this.');

    const first = await signInAs(t, { role: 'QUANT_ADMIN' });
    const second = await signInAs(t, { role: 'QUANT_ADMIN' });
    const acknowledge = (headers: object, id = raised!.id) =>
      t.app.inject({
        method: 'POST',
        url: `/api/connect/management/alerts/${id}/acknowledge`,
        headers: headers as never,
      });
    expect((await acknowledge(first.headers)).json()).toMatchObject({ acknowledgedBy: first.sub });
    expect((await acknowledge(second.headers)).json()).toMatchObject({ acknowledgedBy: first.sub });
    const unknown = await acknowledge(first.headers, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await alerts.list({ openOnly: true, limit: 10 })).toEqual([]);
  });
});
