import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VAT_RATES_BP,
  INITIAL_INVOICE_SORT,
  ZInvoiceListQuery,
  countryName,
  documentNumber,
  formatInvoiceSort,
  invoicePeriod,
  isExplanatoryLine,
  nextInvoiceSort,
  parseInvoiceSort,
  partyAddressLines,
  splitVat,
  vatFor,
  type TInvoiceSort,
} from './invoices.ts';
import { ZBillingDetailsRequest, vatNumberCountry } from './billing-details.ts';

describe('the invoice sort cycle (spec §4)', () => {
  it('starts on invoice number, descending (spec §9)', () => {
    expect(INITIAL_INVOICE_SORT).toEqual({ field: 'invoiceNumber', direction: 'desc' });
  });

  it('goes empty → desc, desc → asc, asc → desc on the same column', () => {
    let sort: TInvoiceSort = null;
    sort = nextInvoiceSort(sort, 'subtotal');
    expect(sort).toEqual({ field: 'subtotal', direction: 'desc' });
    sort = nextInvoiceSort(sort, 'subtotal');
    expect(sort).toEqual({ field: 'subtotal', direction: 'asc' });
    sort = nextInvoiceSort(sort, 'subtotal');
    expect(sort).toEqual({ field: 'subtotal', direction: 'desc' });
  });

  it('choosing another column clears the first and starts it at desc', () => {
    expect(nextInvoiceSort({ field: 'subtotal', direction: 'asc' }, 'status')).toEqual({
      field: 'status',
      direction: 'desc',
    });
  });

  it('writes and reads field:direction; anything else is no sort', () => {
    expect(formatInvoiceSort({ field: 'endDate', direction: 'asc' })).toBe('endDate:asc');
    expect(formatInvoiceSort(null)).toBe('');
    expect(parseInvoiceSort('startDate:desc')).toEqual({ field: 'startDate', direction: 'desc' });
    for (const bad of ['', 'startDate', 'startDate:up', 'lastUpdatedAt:asc', 'status:asc:x', undefined]) {
      expect(parseInvoiceSort(bad)).toBeNull();
    }
  });

  it('the list query refuses a sort it cannot apply and clamps a negative page', () => {
    expect(ZInvoiceListQuery.safeParse({ sort: 'lastUpdatedAt:asc' }).success).toBe(false);
    expect(ZInvoiceListQuery.parse({ page: '-3', size: '50', sort: '' })).toMatchObject({ page: 0, size: 50 });
    expect(ZInvoiceListQuery.safeParse({ size: '20' }).success).toBe(false);
  });
});

describe('VAT', () => {
  const rates = DEFAULT_VAT_RATES_BP;

  it('the issuer’s country, or no country given: the issuer country’s rate', () => {
    expect(vatFor({ issuerCountry: 'GB', customerCountry: 'GB', vatNumberValid: true, rates })).toEqual({
      treatment: 'STANDARD',
      rateBp: 2000,
    });
    expect(vatFor({ issuerCountry: 'GB', customerCountry: null, vatNumberValid: false, rates }).rateBp).toBe(2000);
  });

  it('another country: reverse charge with a valid VAT number, else its rate; outside the table: no VAT', () => {
    expect(vatFor({ issuerCountry: 'GB', customerCountry: 'DE', vatNumberValid: true, rates })).toEqual({
      treatment: 'REVERSE_CHARGE',
      rateBp: 0,
    });
    expect(vatFor({ issuerCountry: 'GB', customerCountry: 'DE', vatNumberValid: false, rates })).toEqual({
      treatment: 'STANDARD',
      rateBp: 1900,
    });
    expect(vatFor({ issuerCountry: 'GB', customerCountry: 'US', vatNumberValid: false, rates })).toEqual({
      treatment: 'OUTSIDE_SCOPE',
      rateBp: 0,
    });
  });

  it('extracts the VAT inside a price, half up, net + VAT = gross', () => {
    expect(splitVat(1_890, 2000)).toEqual({ netMinor: 1_575, vatMinor: 315 });
    expect(splitVat(101, 2000)).toEqual({ netMinor: 84, vatMinor: 17 });
    expect(splitVat(999, 0)).toEqual({ netMinor: 999, vatMinor: 0 });
    for (const gross of [1, 7, 99, 12_345, 686_614]) {
      const { netMinor, vatMinor } = splitVat(gross, 2100);
      expect(netMinor + vatMinor).toBe(gross);
    }
  });

  it('a VAT number must be the billing country’s (EL for Greece)', () => {
    const details = { companyName: 'Acme', addressLine1: '1 Road', city: 'Athens' };
    expect(vatNumberCountry('EL123456789')).toBe('GR');
    expect(ZBillingDetailsRequest.safeParse({ ...details, country: 'GR', vatNumber: 'EL123456789' }).success).toBe(
      true,
    );
    const wrong = ZBillingDetailsRequest.safeParse({ ...details, country: 'FR', vatNumber: 'DE123456789' });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues[0]!.path).toEqual(['vatNumber']);
  });
});

describe('documents', () => {
  it('a line with no price, VAT or amount only explains the bill', () => {
    const line = { unitPrice: '0', vat: 0, amount: 0 };
    expect(isExplanatoryLine(line)).toBe(true);
    expect(isExplanatoryLine({ ...line, unitPrice: '0.7874', amount: 1575, vat: 315 })).toBe(false);
    // A priced line that rounds to nothing is still priced.
    expect(isExplanatoryLine({ ...line, unitPrice: '0.0001' })).toBe(false);
  });
  it('numbers with the series and six digits at least', () => {
    expect(documentNumber('INV', 42)).toBe('INV-000042');
    expect(documentNumber('RCT', 1_234_567)).toBe('RCT-1234567');
  });

  it('prints the country by name unless the address says it already', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(partyAddressLines({ address: ['1 Road', 'Berlin'], country: 'DE' })).toEqual([
      '1 Road',
      'Berlin',
      'Germany',
    ]);
    expect(partyAddressLines({ address: ['1 Road', 'United Kingdom'], country: 'GB' })).toEqual([
      '1 Road',
      'United Kingdom',
    ]);
    expect(partyAddressLines({ address: [], country: 'GB' })).toEqual([]);
  });

  it('a month’s period shows its first and last UTC day (noon, the same day in every zone); an order’s as stored', () => {
    const nov = new Date('2026-11-01T00:00:00.000Z');
    const dec = new Date('2026-12-01T00:00:00.000Z');
    expect(invoicePeriod('MONTHLY', nov, dec)).toEqual({
      start: '2026-11-01T12:00:00.000Z',
      end: '2026-11-30T12:00:00.000Z',
    });
    // The development close of "now" ends mid-day: that day.
    expect(invoicePeriod('MONTHLY', nov, new Date('2026-11-26T23:19:00.000Z')).end).toBe('2026-11-26T12:00:00.000Z');
    const renewal = new Date('2026-12-26T10:00:00.000Z');
    expect(invoicePeriod('ORDER', nov, renewal)).toEqual({ start: nov.toISOString(), end: renewal.toISOString() });
    expect(invoicePeriod('MONTHLY', null, null)).toEqual({ start: null, end: null });
  });
});
