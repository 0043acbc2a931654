import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TProblem } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { administrator, customer, placePlan, planByCode, planOrder, receipt, type Session } from './test-support.ts';

/*
 * Every money input of the API against the column it is stored in (issue 27 §3): one more than
 * the largest amount the schema takes is a 400 naming the field, and the largest itself is taken
 * or refused by a rule of the business — never a 500 from a column that cannot hold it. Minor
 * units and credits are 32-bit integer columns (MAX_INT32); a spending cap is micro-credits in a
 * bigint, bounded at 10,000,000 credits.
 */

const MAX_INT32 = 2_147_483_647;

describe('money inputs: the largest amount and one more', () => {
  let t: TestContext;
  let staff: Awaited<ReturnType<typeof administrator>>;
  let user: Session;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await administrator(t);
    user = await customer(t);
  });
  afterAll(() => t?.close());

  /** An annual plan ordered by a new customer, awaiting its bank transfer. */
  const annualOrder = async () =>
    placePlan(t, await customer(t), planOrder((await planByCode(t, 'annual-standard')).id));

  type Input = {
    name: string;
    field: string;
    max: number;
    above: number;
    send: (amount: number) => Promise<{ statusCode: number; json: () => unknown; body: string }>;
  };
  const inputs: Input[] = [
    {
      name: 'a bank transfer received (staff)',
      field: 'amountGbpMinor',
      max: MAX_INT32,
      above: MAX_INT32 + 1,
      send: async (amount) => {
        const order = await annualOrder();
        return receipt(t, staff, order.id, { amountGbpMinor: amount });
      },
    },
    {
      name: 'a card refund (staff)',
      field: 'amountGbpMinor',
      max: MAX_INT32,
      above: MAX_INT32 + 1,
      send: (amount) =>
        t.app.inject({
          method: 'POST',
          url: `/api/payment/management/orders/${randomUUID()}/refunds`,
          headers: staff.headers,
          payload: { idempotencyKey: randomUUID(), amountGbpMinor: amount, reason: 'Goodwill' },
        }),
    },
    {
      name: 'an application’s spending cap',
      field: 'monthlyCapCredits',
      max: 10_000_000,
      above: 10_000_000.01,
      send: (amount) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/application-manager/usage/caps/${randomUUID()}`,
          headers: user.headers,
          payload: { monthlyCapCredits: amount },
        }),
    },
  ];

  it.each(inputs)('$name: one more than the largest is a 400, the largest is never a 500', async (input) => {
    const above = await input.send(input.above);
    expect(above.statusCode, above.body).toBe(400);
    expect((above.json() as TProblem).invalidParams?.map((p) => p.name)).toEqual([input.field]);
    const largest = await input.send(input.max);
    expect(largest.statusCode, largest.body).toBeLessThan(500);
  });

  it('refuses a receipt above what the order still needs, also after a part was received (no overflowing sum)', async () => {
    const order = await annualOrder();
    expect((await receipt(t, staff, order.id, { amountGbpMinor: 100 })).statusCode).toBe(200);
    const rest = order.totalGbpMinor - 100;
    for (const amount of [MAX_INT32, rest + 1]) {
      const res = await receipt(t, staff, order.id, { amountGbpMinor: amount });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<TProblem>().invalidParams?.map((p) => p.name)).toEqual(['amountGbpMinor']);
    }
    const paid = await receipt(t, staff, order.id, { amountGbpMinor: rest });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'PAID' });
  });
});
