import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '@connect/db';
import { ZManagementOrdersResponse, type TManagementOrdersResponse } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { administrator, customer, placePlan, planByCode, planOrder, receipt, type Session } from './test-support.ts';

/* The staff's orders screen (issue 33 §5): GET /api/account-plan/management/order-list. */

describe('the orders screen: every account’s orders in the staff list', () => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof administrator>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await administrator(t);
  });
  afterAll(() => t?.close());

  const list = async (query: string, session: { headers: object } = admin): Promise<TManagementOrdersResponse> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/account-plan/management/order-list?${query}`,
      headers: session.headers as Record<string, string>,
    });
    expect(res.statusCode, res.body).toBe(200);
    return ZManagementOrdersResponse.parse(res.json());
  };
  async function customerOf(organisationName: string): Promise<Session> {
    const user = await customer(t);
    await t.db.db.update(accounts).set({ organisationName }).where(eq(accounts.id, user.accountId));
    return user;
  }

  it('is for administrators: sales and customers are refused, bad queries answer invalidParams', async () => {
    const sales = await signInAs(t, { role: 'QUANT_SALES' });
    const user = await customer(t);
    for (const caller of [sales, user]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/account-plan/management/order-list',
        headers: caller.headers,
      });
      expect(res.statusCode).toBe(403);
    }
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/account-plan/management/order-list?status=LOST&size=7',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .invalidParams.map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['size', 'status']);
  });

  it('lists orders newest first with their account, by status, found by reference or organisation', async () => {
    const org = `Medlar ${Date.now()}`;
    const first = await customerOf(`${org} One`);
    const second = await customerOf(`${org} Two`);
    const annual = await planByCode(t, 'annual-standard');
    const older = await placePlan(t, first, planOrder(annual.id));
    const newer = await placePlan(t, second, planOrder(annual.id));
    expect((await receipt(t, admin, older.id, { amountGbpMinor: older.totalGbpMinor })).statusCode).toBe(200);

    const found = await list(`searchTerm=${encodeURIComponent(org.toLowerCase())}`);
    expect(found.orderList.map((order) => order.id)).toEqual([newer.id, older.id]);
    expect(found.orderList[1]).toMatchObject({
      accountId: first.accountId,
      organisationName: `${org} One`,
      ownerEmail: first.email,
      status: 'PAID',
      paidGbpMinor: older.totalGbpMinor,
      paidBy: ['BANK_TRANSFER'],
      invoiceId: older.invoiceId,
      planName: annual.name,
    });
    // A reference as the customer quotes it, in any case, from its start.
    const byReference = await list(`searchTerm=${newer.reference.slice(0, 8).toLowerCase()}`);
    expect(byReference.orderList.map((order) => order.id)).toContain(newer.id);
    const exact = await list(`searchTerm=${newer.reference}`);
    expect(exact.orderList.map((order) => order.id)).toEqual([newer.id]);
    const awaiting = await list(`status=AWAITING_PAYMENT&searchTerm=${encodeURIComponent(org)}`);
    expect(awaiting.orderList.map((order) => order.id)).toEqual([newer.id]);
    const paid = await list(`status=PAID&searchTerm=${encodeURIComponent(org)}&size=5`);
    expect([paid.totalItems, paid.orderList[0]!.id]).toEqual([1, older.id]);
  });

  it('pages with the shared list’s cursors', async () => {
    const org = `Loquat ${Date.now()}`;
    const annual = await planByCode(t, 'annual-standard');
    const placed = [];
    for (let i = 0; i < 6; i += 1) {
      placed.push((await placePlan(t, await customerOf(`${org} ${i}`), planOrder(annual.id))).id);
    }
    const first = await list(`searchTerm=${encodeURIComponent(org)}&size=5`);
    expect([first.totalItems, first.hasNextPage]).toEqual([6, true]);
    const next = await list(`searchTerm=${encodeURIComponent(org)}&size=5&page=1&cursor=${first.cursor}`);
    expect([...first.orderList, ...next.orderList].map((order) => order.id)).toEqual([...placed].reverse());
  });
});
