import {
  REVERSE_CHARGE_LEGEND,
  ZInvoice,
  ZInvoicePage,
  ZInvoicePaymentRate,
  ZInvoiceRow,
  ZReceipt,
  type TInvoice,
  type TInvoicePage,
  type TInvoicePaymentRate,
  type TInvoiceRow,
  type TReceipt,
} from '@connect/shared';
import { QNT_ORDER, QNT_PAYMENT, qnt } from '../../../test/plans.ts';

export { createFetchMock, json, TEST_USER as USER } from '../../../test/fixtures.ts';
export { QNT_ORDER, QNT_PAYMENT, qnt };

/*
 * The invoices of the tests, parsed by the shared schemas (a fixture the server could not send
 * fails here, not in a page): a month's pay-as-you-go invoice, open; an order's invoice, paid and
 * partly credited; and what the detail, payment rate and receipt calls answer.
 */

export const MONTHLY_ID = '90000000-0000-4000-8000-000000000001';
export const ORDER_INVOICE_ID = '90000000-0000-4000-8000-000000000002';
export const VOID_ID = '90000000-0000-4000-8000-000000000003';

export const MONTHLY_ROW: TInvoiceRow = ZInvoiceRow.parse({
  id: MONTHLY_ID,
  invoiceNumber: 'INV-000042',
  kind: 'MONTHLY',
  startDate: '2026-10-01T00:00:00.000Z',
  endDate: '2026-10-31T12:00:00.000Z',
  subtotal: 1_234_567,
  total: 1_481_480,
  currency: 'GBP',
  status: 'OPEN',
  overdue: false,
  credited: 0,
  dueDate: '2026-11-15T12:00:00.000Z',
  lastUpdatedAt: '2026-11-02T12:00:00.000Z',
  orderId: QNT_ORDER.id,
});

export const PAID_ROW: TInvoiceRow = ZInvoiceRow.parse({
  ...MONTHLY_ROW,
  id: ORDER_INVOICE_ID,
  invoiceNumber: 'INV-000041',
  kind: 'ORDER',
  startDate: '2026-09-15T12:00:00.000Z',
  endDate: '2027-09-15T12:00:00.000Z',
  subtotal: 500_000,
  total: 600_000,
  status: 'PAID',
  credited: 10_000,
  lastUpdatedAt: '2026-09-16T12:00:00.000Z',
});

export const OVERDUE_ROW: TInvoiceRow = ZInvoiceRow.parse({
  ...MONTHLY_ROW,
  id: '90000000-0000-4000-8000-000000000004',
  invoiceNumber: 'INV-000040',
  subtotal: 9_900,
  overdue: true,
});

export const VOID_ROW: TInvoiceRow = ZInvoiceRow.parse({
  ...MONTHLY_ROW,
  id: VOID_ID,
  invoiceNumber: 'INV-000039',
  status: 'VOID',
});

export const invoicePage = (rows: TInvoiceRow[], { page = 0, size = 10, sort = 'invoiceNumber:desc' } = {}) =>
  ZInvoicePage.parse({
    content: rows,
    totalElements: rows.length,
    totalPages: Math.max(1, Math.ceil(rows.length / size)),
    number: page,
    size,
    sort,
  }) satisfies TInvoicePage;

const ISSUER = {
  companyName: 'Connect Platform Ltd',
  address: ['1 Ledger Lane', 'London', 'EC1A 1AA'],
  country: 'GB',
  registrationNumber: '01234567',
  vatNumber: 'GB123456789',
  website: 'https://connect.example.com',
  telephone: '+44 20 7946 0000',
  email: 'billing@connect.example.com',
};

/** The month's invoice (October 2026): 12,000 credits used beyond the allowance, VAT 20 % inside the price. */
export const MONTHLY: TInvoice = ZInvoice.parse({
  id: MONTHLY_ID,
  number: 'INV-000042',
  kind: 'MONTHLY',
  status: 'OPEN',
  overdue: false,
  date: '2026-11-02T12:00:00.000Z',
  reference: 'CNX-QNT00001',
  accountNumber: 'ACC-6A1D7B3F',
  dueDate: '2026-11-16T12:00:00.000Z',
  termsDays: 14,
  periodStart: '2026-10-01T12:00:00.000Z',
  periodEnd: '2026-10-31T12:00:00.000Z',
  lastUpdatedAt: '2026-11-02T12:00:00.000Z',
  customer: {
    companyName: 'Analytical Engines Ltd',
    address: ['12 Difference Street', 'Cambridge', 'CB1 2AB'],
    country: 'GB',
    registrationNumber: '07654321',
    vatNumber: null,
    website: null,
    telephone: '+44 1223 000000',
    email: 'ada@example.com',
  },
  issuer: ISSUER,
  lines: [
    {
      description: 'Gateway calls — read (1,500,000 calls): 150 credits',
      quantity: 1_500_000,
      unitPrice: '0',
      vatRateBp: 0,
      vat: 0,
      amount: 0,
    },
    {
      description: 'Pay-as-you-go credits, October 2026',
      quantity: 12_000,
      unitPrice: '0.9449',
      vatRateBp: 2000,
      vat: 188_980,
      amount: 944_900,
    },
  ],
  currency: 'GBP',
  subtotal: 944_900,
  totalWithoutVat: 944_900,
  vat: 188_980,
  vatTreatment: 'STANDARD',
  vatRateBp: 2000,
  vatNote: null,
  totalGbp: 1_133_880,
  totalUsd: 1_440_028,
  usdPerGbp: '1.27',
  paymentReceived: 0,
  dateReceived: null,
  paymentMethod: null,
  amountDue: 1_133_880,
  qnt: { amountWei: qnt('141.735'), gbpPerQnt: '80.00', rateAt: '2026-11-02T12:00:00.000Z' },
  orderId: QNT_ORDER.id,
  creditNotes: [],
  receipt: null,
}) satisfies TInvoice;

export const RECEIPT: TReceipt = ZReceipt.parse({
  id: '91000000-0000-4000-8000-000000000001',
  number: 'RCT-000007',
  invoiceId: ORDER_INVOICE_ID,
  invoiceNumber: 'INV-000041',
  amount: 600_000,
  currency: 'GBP',
  method: 'QNT',
  paidAt: '2026-09-16T12:00:00.000Z',
  createdAt: '2026-09-16T12:05:00.000Z',
});

/** The order's invoice: a German business with a valid VAT number (reverse charge), paid, with a credit note. */
export const PAID: TInvoice = ZInvoice.parse({
  ...MONTHLY,
  id: ORDER_INVOICE_ID,
  number: 'INV-000041',
  kind: 'ORDER',
  status: 'PAID',
  date: '2026-09-15T12:00:00.000Z',
  reference: 'CNX-7K2M9QXA',
  customer: {
    companyName: 'Rechenwerk GmbH',
    address: [],
    country: 'DE',
    registrationNumber: null,
    vatNumber: 'DE123456789',
    website: null,
    telephone: null,
    email: 'billing@rechenwerk.example',
  },
  lines: [
    {
      description: 'Annual Subscription — Standard',
      quantity: 1,
      unitPrice: '6000',
      vatRateBp: 0,
      vat: 0,
      amount: 600_000,
    },
  ],
  subtotal: 600_000,
  totalWithoutVat: 600_000,
  vat: 0,
  vatTreatment: 'REVERSE_CHARGE',
  vatRateBp: 0,
  vatNote: REVERSE_CHARGE_LEGEND,
  totalGbp: 600_000,
  totalUsd: 750_000,
  usdPerGbp: '1.25',
  paymentReceived: 600_000,
  dateReceived: '2026-09-16T12:00:00.000Z',
  paymentMethod: 'QNT',
  amountDue: 0,
  creditNotes: [
    {
      id: '92000000-0000-4000-8000-000000000001',
      number: 'CN-000003',
      amount: 10_000,
      reason: 'Refund of unused credits',
      createdAt: '2026-10-01T12:00:00.000Z',
    },
  ],
  receipt: null,
}) satisfies TInvoice;

/** Paying MONTHLY in QNT: 141.735 QNT at £80.00, with `held` QNT in the account. */
export const paymentRate = (held: string): TInvoicePaymentRate =>
  ZInvoicePaymentRate.parse({
    invoiceId: MONTHLY_ID,
    invoiceNumber: 'INV-000042',
    amountDue: 1_133_880,
    qntPaymentAmount: qnt('141.735'),
    gbpPerQnt: '80.00',
    rateAt: '2026-11-20T10:00:00.000Z',
    expiresAt: '2026-11-20T10:30:00.000Z',
    heldQnt: held,
    order: INVOICE_QNT_ORDER,
  });

/** The invoice's USAGE order with its QNT quote (deposit address, chain). */
export const INVOICE_QNT_ORDER = {
  ...QNT_ORDER,
  id: '30000000-0000-4000-8000-000000000009',
  reference: 'CNX-USAGE001',
  kind: 'USAGE',
  invoiceId: MONTHLY_ID,
  totalGbpMinor: 1_133_880,
  qnt: { ...QNT_PAYMENT, amountDue: qnt('141.735') },
} as typeof QNT_ORDER;
