import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '@connect/db';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { customer } from '../account-plan/test-support.ts';

describe('the email of a month’s invoice (invoice.finalised)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('mails the account’s members once per invoice, with the number, total, due date and the link', async () => {
    const user = await customer(t);
    const invoiceId = randomUUID();
    const payload = {
      accountId: user.accountId,
      invoiceId,
      number: 'INV-000321',
      orderId: randomUUID(),
      totalGbpMinor: 123_456,
      dueAt: '2026-03-07T12:00:00.000Z',
    };
    // The close announces it; a second announcement (a retried close) mails nothing more.
    await t.app.events.emit(t.db.db, 'invoice.finalised', payload);
    await t.app.events.emit(t.db.db, 'invoice.finalised', payload);
    await t.app.events.drain();
    const mails = await t.db.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, user.email), like(mailOutbox.subject, 'Invoice %')));
    expect(mails.map((mail) => mail.subject)).toEqual(['Invoice INV-000321: £1,234.56 due by 07.03.2026']);
    expect(mails[0]!.textBody).toContain(`http://localhost/invoices/my-invoices/${invoiceId}`);
  });
});
