import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { ZRecordReceiptRequest, type TAccountDetailOrder } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useId, useMemo, useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { formatDate } from '../../../lib/format.ts';
import { formatGbp } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useRecordReceipt } from '../api/record-receipt.ts';
import { applyFieldErrors } from './invite-user-dialog.tsx';
import { MoneyConfirmStep, MoneyFormStep } from './money-dialog-steps.tsx';
import { poundsField, poundsTextOf } from './pounds-field.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Today in the staff member's own time zone, as the date field shows days (YYYY-MM-DD). */
const today = () => new Date().toLocaleDateString('en-CA');

/** The form: the bank's reference, pounds up to what the order still needs, and a day not in the future. */
function receiptSchema(t: TFunction<'staff'>, leftPence: number) {
  return z.object({
    // ZRecordReceiptRequest's rule (1–100 characters, trimmed) with the form's words.
    receiptId: z
      .string()
      .trim()
      .min(1, { error: t('accounts.receipt.errors.reference') })
      .pipe(ZRecordReceiptRequest.shape.receiptId),
    amountGbpMinor: poundsField(
      {
        invalid: t('accounts.money.invalid'),
        tooLarge: (max) => t('accounts.receipt.errors.tooMuch', { amount: `£${max}` }),
      },
      leftPence,
    ),
    receivedOn: z
      .string()
      .regex(DATE, { error: t('accounts.receipt.errors.date') })
      .refine((day) => day <= today(), { error: t('accounts.receipt.errors.future') }),
  });
}
type ReceiptForm = z.input<ReturnType<typeof receiptSchema>>;
type ReceiptValues = z.output<ReturnType<typeof receiptSchema>>;

const FIELDS = ['receiptId', 'amountGbpMinor'] as const;

/**
 * Record a bank transfer received for an open order (issue 33 §1; administrators): the bank's
 * reference, the amount (what the order still needs by default) and the day it arrived, then a
 * confirmation that says what the receipt will do — the order paid and the plan active, or what
 * will still be due. The same reference again records nothing twice (the server's rule).
 */
export function RecordReceiptDialog({
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
  const snackbar = useSnackbar();
  const record = useRecordReceipt();
  const left = order.totalGbpMinor - order.paidGbpMinor;
  const schema = useMemo(() => receiptSchema(t, left), [t, left]);
  const form = useForm<ReceiptForm, unknown, ReceiptValues>({
    resolver: zodResolver(schema),
    defaultValues: { receiptId: '', amountGbpMinor: poundsTextOf(left), receivedOn: today() },
    mode: 'onTouched',
  });
  const control = form.control as unknown as Control<ReceiptForm>;
  const [confirming, setConfirming] = useState<ReceiptValues | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const isSending = record.isPending;

  const review = form.handleSubmit((values) => {
    setFailure(null);
    setConfirming(values);
  });
  const submit = async (values: ReceiptValues) => {
    setFailure(null);
    try {
      // Noon UTC of the day typed: the same calendar day in every time zone the portal is used in.
      const receivedAt = new Date(`${values.receivedOn}T12:00:00.000Z`);
      const answer = await record.mutateAsync({
        accountId,
        orderId: order.id,
        receipt: {
          receiptId: values.receiptId,
          amountGbpMinor: values.amountGbpMinor,
          receivedAt: (receivedAt.getTime() > Date.now() ? new Date() : receivedAt).toISOString(),
        },
      });
      snackbar.show({
        title: t('accounts.receipt.recorded', { reference: order.reference }),
        description:
          answer.status === 'PAID'
            ? t('accounts.receipt.paid')
            : t('accounts.receipt.stillDue', { amount: formatGbp(answer.totalGbpMinor - answer.paidGbpMinor) }),
      });
      onClose();
    } catch (error) {
      setConfirming(null);
      if (!applyFieldErrors(error, FIELDS, form.setError)) setFailure(problemMessage(error));
    }
  };
  const handleClose = () => {
    if (!isSending) onClose();
  };

  const covers = confirming ? confirming.amountGbpMinor >= left : false;
  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('accounts.receipt.title', { reference: order.reference })}</DialogTitle>
      {confirming ? (
        <MoneyConfirmStep
          onBack={() => setConfirming(null)}
          isSending={isSending}
          action={
            <Button variant="contained" loading={isSending} onClick={() => void submit(confirming)} autoFocus>
              {t('accounts.receipt.submit')}
            </Button>
          }
        >
          <DialogContentText>
            {t('accounts.receipt.confirm', {
              amount: formatGbp(confirming.amountGbpMinor),
              date: formatDate(`${confirming.receivedOn}T12:00:00.000Z`),
              reference: confirming.receiptId,
              order: order.reference,
            })}
          </DialogContentText>
          <DialogContentText sx={{ mt: 1 }}>
            {covers
              ? t('accounts.receipt.confirmPaid')
              : t('accounts.receipt.confirmPart', { amount: formatGbp(left - confirming.amountGbpMinor) })}
          </DialogContentText>
        </MoneyConfirmStep>
      ) : (
        <MoneyFormStep
          onSubmit={(event) => void review(event)}
          onCancel={handleClose}
          failureTitle={t('accounts.receipt.failed')}
          failure={failure}
        >
          <DialogContentText>
            {t('accounts.receipt.intro', {
              total: formatGbp(order.totalGbpMinor),
              left: formatGbp(left),
            })}
          </DialogContentText>
          <FormTextField
            control={control}
            name="receiptId"
            label={t('accounts.receipt.reference')}
            helperText={t('accounts.receipt.referenceHint')}
            required
            autoFocus
            slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
          />
          <FormTextField
            control={control}
            name="amountGbpMinor"
            label={t('accounts.receipt.amount')}
            required
            slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
            sx={{ maxWidth: 240 }}
          />
          <FormTextField
            control={control}
            name="receivedOn"
            type="date"
            label={t('accounts.receipt.date')}
            required
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
            sx={{ maxWidth: 240 }}
          />
        </MoneyFormStep>
      )}
    </Dialog>
  );
}
