import { describe, expect, it } from 'vitest';
import { formatGbp, formatUsd, formatUsdPerCredit } from '../../lib/plans/money.ts';
import { offerOf } from '../../lib/plans/rank.ts';
import { ANNUAL_ADVANCE, ANNUAL_STANDARD, ANNUAL, PAYG_ADVANCE, PAYG_STANDARD, TRIAL } from '../../test/plans.ts';
import { addMonths, isFree, methodForFreeOrder, offeredMethods, summaryOf } from './checkout.ts';

describe('money', () => {
  it('shows pounds and dollars with their symbol and thousands separators', () => {
    expect(formatGbp(1_800_000)).toBe('£18,000.00');
    expect(formatUsd(4_750_000)).toBe('$47,500.00');
    expect(formatUsdPerCredit(95)).toBe('$0.95');
    expect(formatUsdPerCredit(105.5)).toBe('$1.055');
  });
});

describe('offerOf', () => {
  it('marks the current plan, leaves lower plans out and offers higher ones', () => {
    expect(offerOf(ANNUAL, ANNUAL_STANDARD)).toBe('CURRENT');
    expect(offerOf(ANNUAL, PAYG_ADVANCE)).toBe('LOWER');
    expect(offerOf(ANNUAL, ANNUAL_ADVANCE)).toBe('UPGRADE');
    expect(offerOf(TRIAL, PAYG_STANDARD)).toBe('UPGRADE');
  });

  it('offers every plan, its own included, to an inactive account', () => {
    const inactive = { ...ANNUAL, status: 'INACTIVE' as const };
    expect(offerOf(inactive, ANNUAL_STANDARD)).toBe('UPGRADE');
    expect(offerOf(inactive, PAYG_STANDARD)).toBe('UPGRADE');
  });
});

describe('summaryOf', () => {
  const today = new Date(2026, 0, 31);

  it('prices an upfront period as its months of the annual fee and ends it after them', () => {
    const plan = { ...ANNUAL_ADVANCE, upfrontMonths: 24 };
    const summary = summaryOf({ plan, groupName: 'Annual Subscription', isUpfront: true, bundle: null }, today, []);
    expect(summary).toMatchObject({ planGbpMinor: 3_600_000, renewalGbpMinor: 1_800_000, upfrontMonths: 24 });
    expect(summary.renewalDate).toEqual(new Date(2028, 0, 31));
  });

  it('renews pay as you go after a month (the last day when the month is shorter) and costs nothing now', () => {
    const summary = summaryOf(
      { plan: PAYG_STANDARD, groupName: 'Pay as you go', isUpfront: false, bundle: null },
      today,
      [],
    );
    expect(summary.renewalDate).toEqual(new Date(2026, 1, 28));
    expect(summary.creditUnitUsdCents).toBe(120);
    expect(isFree(summary)).toBe(true);
  });

  it('takes the bundle’s unit price over the plan’s', () => {
    const bundle = { id: 'b', credits: 1_000, priceUsdCents: 110_000, unitPriceUsdCents: 110 };
    const summary = summaryOf(
      { plan: ANNUAL_STANDARD, groupName: 'Annual Subscription', isUpfront: false, bundle },
      today,
      [],
    );
    expect(summary).toMatchObject({ bundleCredits: 1_000, bundleUsdCents: 110_000, creditUnitUsdCents: 110 });
    expect(isFree(summary)).toBe(false);
  });

  it('lists the methods the order can be paid with now, not every one the plan accepts', () => {
    const selection = { plan: ANNUAL_STANDARD, groupName: 'Annual Subscription', isUpfront: false, bundle: null };
    const offered = offeredMethods(ANNUAL_STANDARD, { availablePaymentMethods: ['BANK_TRANSFER', 'QNT'] });
    expect(summaryOf(selection, today, offered).paymentMethods).toEqual(['QNT', 'BANK_TRANSFER']);
  });
});

describe('payment methods', () => {
  it('offers the plan’s methods that are available today, in the plan’s order', () => {
    expect(offeredMethods(ANNUAL_STANDARD, { availablePaymentMethods: ['FIAT', 'BANK_TRANSFER'] })).toEqual([
      'BANK_TRANSFER',
      'FIAT',
    ]);
    expect(offeredMethods(PAYG_STANDARD, { availablePaymentMethods: ['BANK_TRANSFER'] })).toEqual([]);
  });

  it('places an order with nothing to pay with the plan’s first method when none is available', () => {
    expect(methodForFreeOrder(PAYG_STANDARD, [])).toBe('FIAT');
    expect(methodForFreeOrder(PAYG_STANDARD, ['QNT'])).toBe('QNT');
  });
});

describe('addMonths', () => {
  it('keeps the day of the month where it exists', () => {
    expect(addMonths(new Date(2026, 10, 20), 12)).toEqual(new Date(2027, 10, 20));
  });
});
