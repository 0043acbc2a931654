import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZInvoice,
  ZInvoicePage,
  ZInvoicePaymentRate,
  ZOrder,
  ZReceipt,
  type TInvoice,
  type TInvoiceListQuery,
  type TInvoicePage,
  type TInvoicePaymentRate,
  type TOrder,
  type TReceipt,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { downloadFile } from '../../../lib/download.ts';
import { trackOrder } from '../../../lib/plans/api.ts';

/*
 * The invoices' calls (spec §7, issue 18): the list, one invoice, its QNT rate and payment on the
 * payment service; the receipt on the connect service; the documents as bearer-authenticated downloads.
 */

/** Every invoice query starts with this key: a payment or a receipt refreshes them all. */
export const invoicesKey = ['payment', 'invoices'] as const;

/** GET /user/invoices: one page of the account's invoices (drafts are never listed). */
export function getInvoices(query: TInvoiceListQuery, signal?: AbortSignal): Promise<TInvoicePage> {
  return api.payment.get('/user/invoices', { query, schema: ZInvoicePage, ...(signal ? { signal } : {}) });
}

export const getInvoicesQueryOptions = (query: TInvoiceListQuery) =>
  queryOptions({
    queryKey: [...invoicesKey, 'list', query],
    queryFn: ({ signal }) => getInvoices(query, signal),
    // Another page or sort keeps the rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });

export function useInvoices(query: TInvoiceListQuery) {
  return useQuery(getInvoicesQueryOptions(query));
}

/** GET /user/invoice/{id}: the invoice as its page, PDF and CSV show it. */
export function getInvoice(id: string, signal?: AbortSignal): Promise<TInvoice> {
  return api.payment.get(`/user/invoice/${encodeURIComponent(id)}`, {
    schema: ZInvoice,
    ...(signal ? { signal } : {}),
  });
}

export const getInvoiceQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...invoicesKey, 'detail', id], queryFn: ({ signal }) => getInvoice(id, signal) });

export function useInvoice(id: string) {
  return useQuery(getInvoiceQueryOptions(id));
}

/**
 * Where to send a bank transfer for a due invoice: its order's transfer instructions (POST
 * /order/track answers them while the order waits for a transfer), null otherwise.
 */
export function useInvoiceBankTransfer(invoice: Pick<TInvoice, 'orderId' | 'status'>) {
  const orderId = invoice.orderId ?? '';
  return useQuery({
    queryKey: [...invoicesKey, 'order', orderId],
    queryFn: () => trackOrder(orderId),
    enabled: orderId !== '' && invoice.status === 'OPEN',
    select: (order) => order.bankTransfer,
  });
}

/** GET /user/invoice/payment-rate/{id}: the QNT amount at the quoted rate, the QNT held, and the order carrying the quote. */
export function getInvoicePaymentRate(id: string): Promise<TInvoicePaymentRate> {
  return api.payment.get(`/user/invoice/payment-rate/${encodeURIComponent(id)}`, { schema: ZInvoicePaymentRate });
}

/**
 * The rate's key, outside `invoicesKey` on purpose: refreshing the invoices (a payment, a push of
 * the invoice's change) must never ask a paid invoice for a rate (409); the dialog asks while the
 * invoice is open only.
 */
export const invoicePaymentRateKey = (id: string) => ['payment', 'invoice-payment-rate', id] as const;

export function useInvoicePaymentRate(id: string, enabled: boolean) {
  return useQuery({
    queryKey: invoicePaymentRateKey(id),
    queryFn: () => getInvoicePaymentRate(id),
    enabled,
    // A quote is asked for each time the dialog opens: an old one may have expired.
    gcTime: 0,
    staleTime: 0,
  });
}

/** POST /user/invoice/{id}/pay-qnt: settles from the QNT held when enough, else the order to pay by a transfer. */
export function payInvoiceWithQnt(id: string): Promise<TOrder> {
  return api.payment.post(`/user/invoice/${encodeURIComponent(id)}/pay-qnt`, undefined, { schema: ZOrder });
}

export function usePayInvoiceWithQnt(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => payInvoiceWithQnt(id),
    onSuccess: (order) => {
      if (order.status === 'PAID') void queryClient.invalidateQueries({ queryKey: invoicesKey });
    },
  });
}

/** POST /user/invoice/create-receipt (connect service): numbers the paid invoice's receipt and emails it. */
export function createReceipt(invoiceId: string): Promise<TReceipt> {
  return api.connect.post('/user/invoice/create-receipt', { invoiceId }, { schema: ZReceipt });
}

export function useCreateReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReceipt,
    onSuccess: (receipt) => {
      queryClient.setQueryData<TInvoice>([...invoicesKey, 'detail', receipt.invoiceId], (current) =>
        current ? { ...current, receipt } : current,
      );
      void queryClient.invalidateQueries({ queryKey: invoicesKey });
    },
  });
}

/** The documents of an invoice, each fetched with the session's token and saved. */
export const invoiceDocuments = {
  pdfUrl: (accountId: string, invoiceId: string) =>
    `/api/payment/${encodeURIComponent(accountId)}/invoice/${encodeURIComponent(invoiceId)}/pdf`,
  csvUrl: (invoiceId: string) => `/api/payment/user/invoice/${encodeURIComponent(invoiceId)}/csv`,
  receiptUrl: (invoiceId: string) => `/api/payment/user/invoice/${encodeURIComponent(invoiceId)}/receipt.pdf`,
};

export type InvoiceDocument = 'pdf' | 'csv' | 'receipt';

/** Saves one of the invoice's documents, named by the server (else by the invoice number). */
export function downloadInvoiceDocument(
  document: InvoiceDocument,
  invoice: { id: string; number: string; accountId: string },
): Promise<void> {
  switch (document) {
    case 'pdf':
      return downloadFile(invoiceDocuments.pdfUrl(invoice.accountId, invoice.id), {
        accept: 'application/pdf',
        fallbackName: `${invoice.number}.pdf`,
      });
    case 'csv':
      return downloadFile(invoiceDocuments.csvUrl(invoice.id), {
        accept: 'text/csv',
        fallbackName: `${invoice.number}.csv`,
      });
    case 'receipt':
      return downloadFile(invoiceDocuments.receiptUrl(invoice.id), {
        accept: 'application/pdf',
        fallbackName: `receipt-${invoice.number}.pdf`,
      });
  }
}
