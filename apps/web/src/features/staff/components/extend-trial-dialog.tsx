import { zodResolver } from '@hookform/resolvers/zod';
import { ZTrialExtensionRequest } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useExtendTrial } from '../api/extend-trial.ts';
import { FormDialogFrame } from './form-dialog-frame.tsx';
import { applyFieldErrors } from './invite-user-dialog.tsx';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 14;
const WHOLE_NUMBER = /^\d+$/;

/**
 * The request's own schema (ZTrialExtensionRequest: 1–365 whole days, a trimmed reason of 1–500
 * characters), with the days read from the typed text first. Text, not `type="number"`: a number
 * input hands "1e3" over as a number and "12abc" as nothing, so the person would not see why.
 */
function extendTrialSchema(t: TFunction<'staff'>) {
  return ZTrialExtensionRequest.extend({
    days: z
      .string()
      .trim()
      .regex(WHOLE_NUMBER, { error: t('accounts.trial.errors.wholeDays') })
      .transform(Number)
      .pipe(ZTrialExtensionRequest.shape.days),
  });
}
type ExtendTrialForm = z.input<ReturnType<typeof extendTrialSchema>>;
type ExtendTrialValues = z.output<ReturnType<typeof extendTrialSchema>>;

const FIELDS = ['days', 'reason'] as const;

/**
 * Where the trial would end: the later of now and the current end, plus the days (as the server
 * computes it); null while the days typed are not 1–365 whole days.
 */
function newEndOf(currentEnd: string, typedDays: string | undefined): Date | null {
  const days = ZTrialExtensionRequest.shape.days.safeParse(
    WHOLE_NUMBER.test(typedDays?.trim() ?? '') ? Number(typedDays) : Number.NaN,
  );
  if (!days.success) return null;
  return new Date(Math.max(Date.now(), new Date(currentEnd).getTime()) + days.data * DAY_MS);
}

/**
 * Extend a trial (issue 33 §1; spec §4 "A trial can be extended"): a number of days and a reason,
 * both audited. Offered for every account — the row does not say whether its plan is the trial —
 * so the server decides, and its refusal (409 for a plan that is not the trial) shows here. The
 * new end is shown as the days are typed when the plan's current end is known.
 */
export function ExtendTrialDialog({
  accountId,
  accountLabel,
  planExpiryDate,
  onClose,
}: {
  accountId: string;
  accountLabel: string;
  planExpiryDate: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const extend = useExtendTrial();
  const [failure, setFailure] = useState<string | null>(null);
  const schema = useMemo(() => extendTrialSchema(t), [t]);
  const form = useForm<ExtendTrialForm, unknown, ExtendTrialValues>({
    resolver: zodResolver(schema),
    defaultValues: { days: String(DEFAULT_DAYS), reason: '' },
    mode: 'onTouched',
  });
  // The fields edit the typed text; only the submitted days are a number.
  const control = form.control as unknown as Control<ExtendTrialForm>;
  const typedDays = useWatch({ control, name: 'days' });
  const newEnd = planExpiryDate ? newEndOf(planExpiryDate, typedDays) : null;
  const isSending = form.formState.isSubmitting || extend.isPending;

  const handleSubmit = form.handleSubmit(async ({ days, reason }) => {
    setFailure(null);
    try {
      const extended = await extend.mutateAsync({ accountId, days, reason });
      snackbar.show({
        title: t('accounts.trial.extended', { date: formatDateTime(extended.trialEndsAt) }),
        description: t('accounts.trial.extendedDescription', { account: accountLabel }),
      });
      onClose();
    } catch (error) {
      // A field's refusal under it; anything else (not the trial, the account gone) above the buttons.
      if (!applyFieldErrors(error, FIELDS, form.setError)) setFailure(problemMessage(error));
    }
  });

  return (
    <FormDialogFrame
      title={t('accounts.trial.title', { account: accountLabel })}
      isSending={isSending}
      onSubmit={handleSubmit}
      onClose={onClose}
      failureTitle={t('accounts.trial.failed')}
      failure={failure}
      cancelLabel={t('accounts.trial.cancel')}
      submitLabel={t('accounts.trial.submit')}
    >
      <FormTextField
        control={control}
        name="days"
        label={t('accounts.trial.days')}
        autoFocus
        required
        helperText={
          newEnd ? t('accounts.trial.newEnd', { date: formatDateTime(newEnd) }) : t('accounts.trial.daysHint')
        }
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
        sx={{ maxWidth: 240 }}
      />
      <FormTextField
        control={control}
        name="reason"
        label={t('accounts.trial.reason')}
        multiline
        minRows={3}
        required
        helperText={t('accounts.trial.reasonHint')}
      />
    </FormDialogFrame>
  );
}
