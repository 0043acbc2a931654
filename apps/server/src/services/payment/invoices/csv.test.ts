import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@connect/db';
import { createTestApp, type TestContext } from '../../../../test/helpers.ts';
import { readCsv } from '../../../lib/csv-testing.ts';
import { administrator } from '../../account-plan/test-support.ts';
import { creditsOrder, get, invoiceOf, paidPlanCustomer, type Session } from './test-support.ts';

describe('the invoice CSV', () => {
  let t: TestContext;
  let user: Session;
  beforeAll(async () => {
    t = await createTestApp();
    ({ user } = await paidPlanCustomer(t, await administrator(t)));
  });
  afterAll(() => t?.close());

  async function csvOf(invoiceId: string) {
    const res = await get(t, `/user/invoice/${invoiceId}/csv`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    expect(res.body).toContain('\r\n');
    return readCsv(res.body);
  }

  it('has the invoice’s fields, then its lines, amounts as plain numbers in pounds', async () => {
    const order = await creditsOrder(t, user, 5_000);
    const invoice = await invoiceOf(t, user, order.invoiceId);
    const rows = await csvOf(invoice.id);
    expect(rows[0]).toEqual(['Field', 'Value']);
    const field = (name: string) => rows.find((row) => row[0] === name)?.[1];
    expect(field('Invoice number')).toBe(invoice.number);
    expect(field('Reference')).toBe(invoice.reference);
    expect(field('Total (GBP)')).toBe(String(invoice.totalGbp / 100));
    expect(field('VAT (GBP)')).toBe(String(invoice.vat / 100));
    expect(field('Amount due (GBP)')).toBe(String(invoice.amountDue / 100));
    const header = rows.findIndex((row) => row[0] === 'Description');
    expect(rows[header]).toEqual([
      'Description',
      'Quantity',
      'Unit price (GBP)',
      'VAT rate (%)',
      'VAT (GBP)',
      'Amount (GBP)',
    ]);
    const lines = rows.slice(header + 1);
    expect(lines.map((line) => line[0])).toEqual(invoice.lines.map((line) => line.description));
    expect(lines.map((line) => Number(line[5]))).toEqual(invoice.lines.map((line) => line.amount / 100));
    // Plain numbers: no symbol, no grouping.
    expect(lines.every((line) => /^-?\d+(\.\d+)?$/.test(line[5]!))).toBe(true);
  });

  it('keeps a formula-like name as text, and commas, quotes and line breaks round-trip', async () => {
    const order = await creditsOrder(t, user, 1_000);
    const customer = {
      companyName: '=HYPERLINK("http://x.example","x")',
      address: ['1 "Quoted" Road, Floor 2', 'Line\nbreak'],
      country: 'GB',
      registrationNumber: '@SUM(A1)',
      vatNumber: null,
      website: null,
      telephone: null,
      email: null,
    };
    await t.db.db.update(invoices).set({ customer }).where(eq(invoices.id, order.invoiceId));
    const rows = await csvOf(order.invoiceId);
    const field = (name: string) => rows.find((row) => row[0] === name)?.[1];
    expect(field('Customer')).toBe(`'${customer.companyName}`);
    expect(field('Customer registration number')).toBe("'@SUM(A1)");
    expect(field('Customer address')).toBe('1 "Quoted" Road, Floor 2, Line\nbreak');
  });
});
