import { describe, expect, it } from 'vitest';
import {
  MAX_INT32,
  wholeNumberFromText,
  ZApplicationsQuery,
  ZInvoiceListQuery,
  ZNotificationsQuery,
  ZPageQuery,
  ZQueryInt,
  ZRecordReceiptRequest,
  ZRotateSecretRequest,
  ZTokensRequest,
  ZUsageQuery,
} from './index.ts';

/* Numbers on the wire (issue 27 §3, §4): JSON numbers are numbers, query numbers decimal digits. */

describe('numbers on the wire', () => {
  it('reads a query number from decimal digits only', () => {
    const days = ZQueryInt({ min: 1, max: 90 });
    expect(days.parse('7')).toBe(7);
    expect(days.parse('007')).toBe(7);
    for (const text of ['', ' 7', '+7', '-7', '7.0', '1e1', '0x10', 'seven', '0', '91', '12345678901']) {
      expect(days.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
    expect(ZUsageQuery.parse({})).toEqual({ days: 14 });
    expect(ZUsageQuery.safeParse({ days: '1e1' }).success).toBe(false);
    expect(ZNotificationsQuery.safeParse({ limit: '0x10' }).success).toBe(false);
  });

  it('reads a page from digits, a negative one as the first, and nothing else', () => {
    for (const schema of [ZApplicationsQuery, ZInvoiceListQuery, ZPageQuery]) {
      expect(schema.parse({ page: '3' }).page).toBe(3);
      expect(schema.parse({ page: '-2' }).page).toBe(0);
      expect(schema.parse({}).page).toBe(0);
      for (const page of ['abc', '0x1', '1e1', '']) expect(schema.safeParse({ page }).success, page).toBe(false);
    }
    expect(ZApplicationsQuery.parse({ size: '50' }).size).toBe(50);
    expect(ZApplicationsQuery.safeParse({ size: '5e1' }).success).toBe(false);
  });

  it('takes a grace period only as a number (z.coerce read "", null and [] as 0: revoke at once)', () => {
    expect(ZRotateSecretRequest.parse({ gracePeriodMinutes: 60 })).toEqual({ gracePeriodMinutes: 60 });
    for (const value of ['', null, [], false, '60', '0x10', '1e3', 1.5]) {
      expect(ZRotateSecretRequest.safeParse({ gracePeriodMinutes: value }).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('takes the token list’s paging (a JSON body) only as numbers', () => {
    expect(ZTokensRequest.parse({ page: -1, size: 50 })).toMatchObject({ page: 0, size: 50 });
    for (const paging of [{ page: '1' }, { size: '10' }, { page: null }, { size: [] }]) {
      expect(ZTokensRequest.safeParse(paging).success, JSON.stringify(paging)).toBe(false);
    }
  });

  it('bounds a received amount by its integer column', () => {
    const receipt = { receiptId: 'B-1', receivedAt: new Date().toISOString() };
    expect(ZRecordReceiptRequest.safeParse({ ...receipt, amountGbpMinor: MAX_INT32 }).success).toBe(true);
    expect(ZRecordReceiptRequest.safeParse({ ...receipt, amountGbpMinor: MAX_INT32 + 1 }).success).toBe(false);
  });

  it('reads a whole number typed in a form: digits, separators when asked, else NaN', () => {
    expect(wholeNumberFromText(' 42 ')).toBe(42);
    expect(wholeNumberFromText('1,000', true)).toBe(1000);
    expect(wholeNumberFromText('1,000')).toBeNaN();
    expect(wholeNumberFromText('-3')).toBe(-3);
    for (const text of ['0x10', '1e3', '1.5', '', '1,00']) expect(wholeNumberFromText(text, true), text).toBeNaN();
  });
});
