import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import type { TInvoice } from '@connect/shared';
import { useCrumbLabel } from '../../../components/layouts/main-layout/crumb-labels.ts';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { isProblem, problemMessage } from '../../../lib/problems.ts';
import { downloadInvoiceDocument, useInvoice, useInvoiceBankTransfer, type InvoiceDocument } from '../api/invoices.ts';
import { InvoiceDocument as InvoiceSheet } from '../components/invoice-document.tsx';
import { PayInvoiceDialog } from '../components/pay-invoice-dialog.tsx';
import { ReceiptActions } from '../components/receipt-actions.tsx';
import { invoicePaths } from '../paths.ts';

/**
 * Printing shows the invoice alone: everything on the page is hidden but the document, which is
 * laid at the top left of the sheet (the shell's menu, top bar, buttons and title take no ink).
 */
const PRINT_STYLES = (
  <GlobalStyles
    styles={{
      '@media print': {
        'body *': { visibility: 'hidden' },
        '[data-print-root], [data-print-root] *': { visibility: 'visible' },
        '[data-print-root]': { position: 'absolute', left: 0, top: 0, width: '100%' },
        '[data-print-root] .MuiPaper-root': { border: 0 },
        '.no-print': { display: 'none !important' },
      },
    }}
  />
);

function InvoiceActions({ invoice, accountId }: { invoice: TInvoice; accountId: string }) {
  const { t } = useTranslation('bill');
  const [isPaying, setIsPaying] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const download = async (document: InvoiceDocument) => {
    setDownloadError(null);
    try {
      await downloadInvoiceDocument(document, { id: invoice.id, number: invoice.number, accountId });
    } catch (error) {
      setDownloadError(`${t('downloadFailed')} ${problemMessage(error)}`);
    }
  };

  return (
    <Box className="no-print" sx={{ mb: 2 }}>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'flex-start' }}>
        <Button variant="outlined" startIcon={<PrintOutlinedIcon />} onClick={() => window.print()}>
          {t('actions.print')}
        </Button>
        <Button variant="outlined" startIcon={<DownloadOutlinedIcon />} onClick={() => void download('pdf')}>
          {t('actions.pdf')}
        </Button>
        <Button variant="outlined" startIcon={<DownloadOutlinedIcon />} onClick={() => void download('csv')}>
          {t('actions.csv')}
        </Button>
        {invoice.status === 'OPEN' ? (
          <Button
            variant="contained"
            startIcon={<AccountBalanceWalletOutlinedIcon />}
            onClick={() => setIsPaying(true)}
          >
            {t('actions.payQnt')}
          </Button>
        ) : null}
        {invoice.status === 'PAID' ? <ReceiptActions invoice={invoice} accountId={accountId} /> : null}
      </Stack>
      {downloadError ? (
        <Alert severity="error" sx={{ mt: 2 }} onClose={() => setDownloadError(null)}>
          {downloadError}
        </Alert>
      ) : null}
      {isPaying ? (
        <PayInvoiceDialog
          invoice={{ id: invoice.id, number: invoice.number }}
          accountId={accountId}
          open
          onClose={() => setIsPaying(false)}
        />
      ) : null}
    </Box>
  );
}

/** The document, with the transfer instructions of its order while it is due and waits for a transfer. */
function InvoiceWithBank({ invoice }: { invoice: TInvoice }) {
  const bank = useInvoiceBankTransfer(invoice);
  return <InvoiceSheet invoice={invoice} bankTransfer={bank.data ?? null} />;
}

/**
 * One invoice (spec §2 Invoices, §3 Invoice; issue 18): the document — issuer, customer, header,
 * lines, summary, footer — with Print, the PDF and CSV, Pay with QNT while it is due, and the
 * receipt once it is paid. Printing prints the document alone.
 */
export function InvoicePage() {
  const { t } = useTranslation('bill');
  const { invoiceId = '' } = useParams();
  const invoice = useInvoice(invoiceId);
  // The breadcrumb names the invoice by its number, not the id in the address.
  useCrumbLabel(useLocation().pathname, invoice.data?.number);
  const user = useCurrentUser();
  const accountId = user.data?.accountId ?? '';

  return (
    <Page
      title={invoice.data ? t('invoice.title', { number: invoice.data.number }) : t('title')}
      actions={
        <Button component={RouterLink} to={invoicePaths.list} startIcon={<ArrowBackIcon />} className="no-print">
          {t('actions.back')}
        </Button>
      }
    >
      {PRINT_STYLES}
      <QueryState
        query={invoice}
        loading={<Skeleton variant="rounded" height={640} aria-label={t('invoice.loading')} />}
        errorMessage={(error) =>
          isProblem(error, 'INVOICE_NOT_FOUND')
            ? t('invoice.notFound')
            : `${t('invoice.loadError')} ${problemMessage(error)}`
        }
        retryLabel={t('retry')}
      >
        {(loaded) => (
          <>
            <InvoiceActions invoice={loaded} accountId={accountId} />
            <Box data-print-root>
              <InvoiceWithBank invoice={loaded} />
            </Box>
          </>
        )}
      </QueryState>
    </Page>
  );
}
