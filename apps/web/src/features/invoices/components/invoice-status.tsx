import Chip, { type ChipProps } from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { TInvoiceRow } from '@connect/shared';

type ShownStatus = 'OPEN' | 'OVERDUE' | 'PAID' | 'VOID';

/** Status colours of shared/UI.md: amber while due, red once overdue, green paid, grey void. */
const COLOURS: Record<ShownStatus, ChipProps['color']> = {
  OPEN: 'warning',
  OVERDUE: 'error',
  PAID: 'success',
  VOID: 'default',
};

/** Due / Overdue / Paid / Void, and "Credited" beside it when a credit note (a refund) was made against the invoice. */
export function InvoiceStatusChips({ invoice }: { invoice: Pick<TInvoiceRow, 'status' | 'overdue' | 'credited'> }) {
  const { t } = useTranslation('bill');
  const shown: ShownStatus = invoice.status === 'OPEN' && invoice.overdue ? 'OVERDUE' : invoice.status;
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
      <Chip size="small" color={COLOURS[shown]} label={t(`status.${shown}`)} data-testid="invoice-status" />
      {invoice.credited > 0 ? <Chip size="small" variant="outlined" color="info" label={t('status.credited')} /> : null}
    </Stack>
  );
}
