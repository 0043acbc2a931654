import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import ReceiptOutlinedIcon from '@mui/icons-material/ReceiptOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TReceipt } from '@connect/shared';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { downloadInvoiceDocument, useCreateReceipt } from '../api/invoices.ts';

/**
 * A paid invoice's receipt: "Create receipt" numbers it (RCT-…) and emails it
 * (POST /user/invoice/create-receipt), then — or when it exists already — "Download receipt".
 */
export function ReceiptActions({
  invoice,
  accountId,
}: {
  invoice: { id: string; number: string; receipt: TReceipt | null };
  accountId: string;
}) {
  const { t } = useTranslation('bill');
  const snackbar = useSnackbar();
  const create = useCreateReceipt();
  const [created, setCreated] = useState<TReceipt | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const receipt = invoice.receipt ?? created;

  const download = async () => {
    setDownloadError(null);
    try {
      await downloadInvoiceDocument('receipt', { id: invoice.id, number: invoice.number, accountId });
    } catch (error) {
      setDownloadError(`${t('downloadFailed')} ${problemMessage(error)}`);
    }
  };

  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      {receipt ? (
        <Button variant="outlined" startIcon={<DownloadOutlinedIcon />} onClick={() => void download()}>
          {t('actions.downloadReceipt')}
        </Button>
      ) : (
        <Button
          variant="contained"
          startIcon={<ReceiptOutlinedIcon />}
          loading={create.isPending}
          onClick={() =>
            create.mutate(invoice.id, {
              onSuccess: (made) => {
                setCreated(made);
                snackbar.show({ type: 'success', title: t('invoice.receiptCreated', { number: made.number }) });
              },
            })
          }
        >
          {t('actions.createReceipt')}
        </Button>
      )}
      {create.isError ? (
        <Alert severity="error">{`${t('invoice.receiptFailed')} ${problemMessage(create.error)}`}</Alert>
      ) : null}
      {downloadError ? <Alert severity="error">{downloadError}</Alert> : null}
    </Stack>
  );
}
