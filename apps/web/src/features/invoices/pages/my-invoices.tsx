import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import {
  INITIAL_INVOICE_SORT,
  INVOICE_PAGE_SIZES,
  formatInvoiceSort,
  nextInvoiceSort,
  parseInvoiceSort,
  type TInvoiceRow,
  type TInvoiceSortField,
} from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { EmptyList, PagedList } from '../../../components/list/paged-list.tsx';
import { Page } from '../../../components/page.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { downloadInvoiceDocument, useInvoices } from '../api/invoices.ts';
import { InvoicesTable, type InvoiceAction } from '../components/invoices-table.tsx';
import { PayInvoiceDialog } from '../components/pay-invoice-dialog.tsx';
import { invoicePaths } from '../paths.ts';

const DEFAULT_SIZE = 10;

/** The page and size of the address: `?page=` is one-based (spec §4: the UI counts from one), the size one of spec §9's. */
function pagingOf(params: URLSearchParams): { page: number; size: number } {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const size = Number.parseInt(params.get('size') ?? '', 10);
  return {
    page: Number.isFinite(page) && page > 1 ? page - 1 : 0,
    size: (INVOICE_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

/**
 * My Invoices (spec §2 Invoices, §3 table, §4 sort cycle; issue 18): the account's invoices, newest
 * number first. Sort and page live in the address (`?sort=subtotal:asc&page=2&size=50`), so a
 * reload or a shared link shows the same rows. Drafts never appear: the server lists numbered
 * invoices only.
 */
export function MyInvoicesPage() {
  const { t } = useTranslation('bill');
  const [params, setParams] = useSearchParams();
  const user = useCurrentUser();
  const accountId = user.data?.accountId ?? '';
  const { page, size } = pagingOf(params);
  // No sort in the address is the initial one; the cycle never returns to "none" (spec §4).
  const sort = params.has('sort')
    ? (parseInvoiceSort(params.get('sort')) ?? INITIAL_INVOICE_SORT)
    : INITIAL_INVOICE_SORT;
  const invoices = useInvoices({ page, size, sort: formatInvoiceSort(sort) });
  const [paying, setPaying] = useState<TInvoiceRow | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null) next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: true },
    );

  const handleSort = (field: TInvoiceSortField) =>
    // Another order starts from the first page.
    update({ sort: formatInvoiceSort(nextInvoiceSort(sort, field)), page: null });

  const handleAction = async (invoice: TInvoiceRow, action: InvoiceAction) => {
    if (action === 'payQnt') {
      setPaying(invoice);
      return;
    }
    setDownloadError(null);
    try {
      await downloadInvoiceDocument(action, { id: invoice.id, number: invoice.invoiceNumber, accountId });
    } catch (error) {
      setDownloadError(`${t('downloadFailed')} ${problemMessage(error)}`);
    }
  };

  return (
    <Page title={t('title')} description={t('description')}>
      {downloadError ? (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setDownloadError(null)}>
          {downloadError}
        </Alert>
      ) : null}
      <Paper variant="outlined">
        <PagedList
          query={invoices}
          retryLabel={t('retry')}
          loadErrorText={t('loadError')}
          placeholderRowHeight={40}
          empty={
            <EmptyList
              icon={<ReceiptLongOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />}
              isFiltered={false}
              filteredText=""
              clearLabel=""
              onClear={() => undefined}
              title={t('empty.title')}
              body={t('empty.body')}
              action={
                <Button component={RouterLink} to={invoicePaths.plans} variant="outlined">
                  {t('empty.action')}
                </Button>
              }
            />
          }
          page={page}
          size={size}
          pageSizes={INVOICE_PAGE_SIZES}
          rowsPerPageLabel={t('rowsPerPage')}
          onPage={(next) => update({ page: next > 0 ? String(next + 1) : null })}
          onSize={(next) => update({ size: next === DEFAULT_SIZE ? null : String(next), page: null })}
        >
          {(data) => (
            <InvoicesTable
              invoices={data.content}
              sort={sort}
              onSort={handleSort}
              onAction={(invoice, action) => void handleAction(invoice, action)}
            />
          )}
        </PagedList>
      </Paper>
      {paying ? (
        <PayInvoiceDialog
          invoice={{ id: paying.id, number: paying.invoiceNumber }}
          accountId={accountId}
          open
          onClose={() => setPaying(null)}
        />
      ) : null}
    </Page>
  );
}
