import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { ZCardRefundRequest, type TAccountDetailOrder, type TCreditNote } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useId, useMemo, useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatGbp } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useRefundOrder } from '../api/refund-order.ts';
import { DetailItem } from './details-drawer.tsx';
import { applyFieldErrors } from './invite-user-dialog.tsx';
import { MoneyConfirmStep, MoneyFormStep } from './money-dialog-steps.tsx';
import { poundsField, poundsTextOf } from './pounds-field.ts';

/**
 * The form: pounds up to what is left to refund, a reason the credit note prints, and for an order
 * paid by bank transfer the reference of the transfer that paid the money back.
 */
function refundSchema(t: TFunction<'staff'>, leftPence: number, byBank: boolean) {
  return z.object({
    bankReference: byBank
      ? z
          .string()
          .trim()
          .min(1, { error: t('accounts.refund.errors.bankReference') })
          .max(100)
      : z.string().optional(),
    amountGbpMinor: poundsField(
      {
        invalid: t('accounts.money.invalid'),
        tooLarge: (max) => t('accounts.refund.errors.tooMuch', { amount: `£${max}` }),
      },
      leftPence,
    ),
    // ZCardRefundRequest's rule (1–500 characters, trimmed) with the form's words.
    reason: z
      .string()
      .trim()
      .min(1, { error: t('accounts.refund.errors.reason') })
      .pipe(ZCardRefundRequest.shape.reason),
  });
}
type RefundForm = z.input<ReturnType<typeof refundSchema>>;
type RefundValues = z.output<ReturnType<typeof refundSchema>>;

const FIELDS = ['amountGbpMinor', 'reason', 'bankReference'] as const;

/**
 * Refund (part of) a paid order (issue 33 §1; administrators) the way it was paid: to the card
 * through the card provider, or — paid by bank transfer — by a transfer staff make, recorded here
 * with its reference. The amount (what is left to refund by default) and a reason, a confirmation
 * that it cannot be undone, then the credit note issued against the order's invoice. One key per
 * dialog: sending again after a lost answer answers the same refund instead of refunding twice.
 */
export function RefundOrderDialog({
  accountId,
  order,
  onClose,
}: {
  accountId: string;
  order: TAccountDetailOrder;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const titleId = useId();
  const refund = useRefundOrder();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const left = order.paidGbpMinor - order.refundedGbpMinor;
  const byBank = !order.paidBy.includes('FIAT');
  const schema = useMemo(() => refundSchema(t, left, byBank), [t, left, byBank]);
  const form = useForm<RefundForm, unknown, RefundValues>({
    resolver: zodResolver(schema),
    defaultValues: { amountGbpMinor: poundsTextOf(left), reason: '', bankReference: '' },
    mode: 'onTouched',
  });
  const control = form.control as unknown as Control<RefundForm>;
  const [confirming, setConfirming] = useState<RefundValues | null>(null);
  const [note, setNote] = useState<TCreditNote | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const isSending = refund.isPending;

  const review = form.handleSubmit((values) => {
    setFailure(null);
    setConfirming(values);
  });
  const submit = async (values: RefundValues) => {
    setFailure(null);
    try {
      const { bankReference, ...rest } = values;
      setNote(
        await refund.mutateAsync({
          accountId,
          orderId: order.id,
          refund: { idempotencyKey, ...rest, ...(byBank && bankReference ? { bankReference } : {}) },
        }),
      );
    } catch (error) {
      setConfirming(null);
      if (!applyFieldErrors(error, FIELDS, form.setError)) setFailure(problemMessage(error));
    }
  };
  const handleClose = () => {
    if (!isSending) onClose();
  };

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>
        {note ? t('accounts.refund.doneTitle') : t('accounts.refund.title', { reference: order.reference })}
      </DialogTitle>
      {note ? (
        <>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              {t(byBank ? 'accounts.refund.doneBank' : 'accounts.refund.done', {
                amount: formatGbp(note.amountGbpMinor),
                reference: order.reference,
              })}
            </DialogContentText>
            <Box component="dl" sx={{ m: 0 }} aria-label={t('accounts.refund.creditNote')}>
              <DetailItem label={t('accounts.refund.noteAmount')}>{formatGbp(note.amountGbpMinor)}</DetailItem>
              <DetailItem label={t('accounts.refund.noteInvoice')}>{order.invoiceNumber ?? '–'}</DetailItem>
              <DetailItem label={t('accounts.refund.reason')}>{note.reason}</DetailItem>
              <DetailItem label={t('accounts.refund.noteStatus')}>{note.status}</DetailItem>
              <DetailItem label={t('accounts.refund.noteIssued')}>{formatDateTime(note.issuedAt)}</DetailItem>
            </Box>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button variant="contained" onClick={onClose} autoFocus>
              {t('accounts.money.done')}
            </Button>
          </DialogActions>
        </>
      ) : confirming ? (
        <MoneyConfirmStep
          onBack={() => setConfirming(null)}
          isSending={isSending}
          action={
            <Button variant="contained" color="error" loading={isSending} onClick={() => void submit(confirming)}>
              {t('accounts.refund.submit', { amount: formatGbp(confirming.amountGbpMinor) })}
            </Button>
          }
        >
          <DialogContentText>
            {t(byBank ? 'accounts.refund.confirmBank' : 'accounts.refund.confirm', {
              amount: formatGbp(confirming.amountGbpMinor),
              reference: order.reference,
              invoice: order.invoiceNumber ?? '–',
              bankReference: confirming.bankReference,
            })}
          </DialogContentText>
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('accounts.refund.irreversible')}
          </Alert>
        </MoneyConfirmStep>
      ) : (
        <MoneyFormStep
          onSubmit={(event) => void review(event)}
          onCancel={handleClose}
          failureTitle={t('accounts.refund.failed')}
          failure={failure}
        >
          <DialogContentText>
            {t(byBank ? 'accounts.refund.introBank' : 'accounts.refund.intro', {
              paid: formatGbp(order.paidGbpMinor),
              left: formatGbp(left),
            })}
          </DialogContentText>
          <FormTextField
            control={control}
            name="amountGbpMinor"
            label={t('accounts.refund.amount')}
            required
            autoFocus
            slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
            sx={{ maxWidth: 240 }}
          />
          {byBank ? (
            <FormTextField
              control={control}
              name="bankReference"
              label={t('accounts.refund.bankReference')}
              helperText={t('accounts.refund.bankReferenceHint')}
              required
              slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
            />
          ) : null}
          <FormTextField
            control={control}
            name="reason"
            label={t('accounts.refund.reason')}
            helperText={t('accounts.refund.reasonHint')}
            multiline
            minRows={2}
            required
          />
        </MoneyFormStep>
      )}
    </Dialog>
  );
}
