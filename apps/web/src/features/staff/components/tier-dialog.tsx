import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  isTierInUse,
  subscriptionTierFormValues,
  ZSubscriptionTierForm,
  type TPlanType,
  type TSubscriptionTier,
  type TSubscriptionTierFormValues,
  type TSubscriptionTierInput,
} from '@connect/shared';
import { useState, type ReactNode } from 'react';
import { useForm, useWatch, type Control, type FieldPath, type UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { invalidParamsOf, problemMessage } from '../../../lib/problems.ts';
import { useCreateSubscriptionTier } from '../api/create-subscription-tier.ts';
import { useUpdateSubscriptionTier } from '../api/update-subscription-tier.ts';
import { FormDialogFrame } from './form-dialog-frame.tsx';
import { TierBundlesField } from './tier-bundles-field.tsx';
import { TierAllowanceFields, TierIdentityFields, TierPriceFields } from './tier-form-fields.tsx';

type Form = TSubscriptionTierFormValues;

/** The form's top-level fields: a refusal naming one of them (or a field under it) is shown under it. */
const ROOTS = new Set(Object.keys(subscriptionTierFormValues()));

/** Puts the server's field errors under their fields (the form and the request name them alike). */
function applyTierFieldErrors(error: unknown, setError: UseFormSetError<Form>) {
  for (const { name, reason } of invalidParamsOf(error)) {
    if (ROOTS.has(name.split('.')[0]!)) setError(name as FieldPath<Form>, { message: reason });
  }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={2} component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/**
 * Create or edit a subscription tier (issue 33 §3; spec §2 the administrator's create/edit form,
 * §3 Subscription tier): validated with the request's own schema as typed (ZSubscriptionTierForm),
 * money in pounds, QNT and dollars with their units beside them. A failure says so (spec §8
 * "Subscription tier create or update failures") as a notification and in the dialog, with a
 * field's reason under the field.
 */
export function TierDialog({ tier, onClose }: { tier: TSubscriptionTier | null; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const create = useCreateSubscriptionTier();
  const update = useUpdateSubscriptionTier();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Form, unknown, TSubscriptionTierInput>({
    resolver: zodResolver(ZSubscriptionTierForm),
    defaultValues: subscriptionTierFormValues(tier ?? undefined),
    mode: 'onTouched',
  });
  // The fields edit the typed text; only the submitted values are the request's.
  const control = form.control as unknown as Control<Form>;
  const type = useWatch({ control, name: 'type' }) as TPlanType | '';
  const isEdit = tier !== null;
  const isSending = form.formState.isSubmitting || create.isPending || update.isPending;

  // The fields the other type has no use for are emptied, so no hidden field holds a refused value.
  const handleTypeChange = (next: TPlanType) => {
    const options = { shouldValidate: false, shouldDirty: true } as const;
    if (next === 'PAY_AS_YOU_GO') {
      form.setValue('feeGbpMinor', '0', options);
      form.setValue('qntPrice', '', options);
      form.setValue('upfrontMonths', '', options);
      form.setValue('creditBundles', [], options);
      const methods = form.getValues('paymentMethods') ?? [];
      form.setValue(
        'paymentMethods',
        methods.filter((method) => method !== 'BANK_TRANSFER'),
        options,
      );
    } else {
      form.setValue('creditPriceUsdCents', '', options);
      if (form.getValues('feeGbpMinor') === '0') form.setValue('feeGbpMinor', '', options);
    }
  };

  const handleSubmit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      const saved = tier ? await update.mutateAsync({ id: tier.id, input }) : await create.mutateAsync(input);
      snackbar.show({
        type: 'success',
        title: t(isEdit ? 'tiers.form.updated' : 'tiers.form.created', { name: saved.name }),
      });
      onClose();
    } catch (error) {
      applyTierFieldErrors(error, form.setError);
      const title = t(isEdit ? 'tiers.form.updateFailed' : 'tiers.form.createFailed');
      snackbar.show({ type: 'error', title, description: problemMessage(error) });
      // Said in the dialog too: while it is open, the page behind it is hidden from screen readers.
      setFailure(problemMessage(error));
    }
  });

  return (
    <FormDialogFrame
      title={tier ? t('tiers.form.editTitle', { name: tier.name }) : t('tiers.form.createTitle')}
      isSending={isSending}
      onSubmit={handleSubmit}
      onClose={onClose}
      failureTitle={t(isEdit ? 'tiers.form.updateFailed' : 'tiers.form.createFailed')}
      failure={failure}
      cancelLabel={t('tiers.form.cancel')}
      submitLabel={isEdit ? t('tiers.form.submitEdit') : t('tiers.form.submitCreate')}
      isLong
    >
      {isEdit ? <Alert severity="info">{t('tiers.form.appliesToNewOrders')}</Alert> : null}
      <Section title={t('tiers.form.sections.tier')}>
        <TierIdentityFields
          control={control}
          isTypeFixed={tier !== null && isTierInUse(tier)}
          onTypeChange={handleTypeChange}
        />
      </Section>
      <Divider />
      <Section title={t('tiers.form.sections.prices')}>
        {type === '' ? (
          <Typography variant="body2" color="text.secondary">
            {t('tiers.form.hints.chooseType')}
          </Typography>
        ) : null}
        <TierPriceFields control={control} type={type} />
      </Section>
      <Divider />
      <Section title={t('tiers.form.sections.allowances')}>
        <TierAllowanceFields control={control} />
      </Section>
      {type === 'SUBSCRIPTION' ? (
        <>
          <Divider />
          <Section title={t('tiers.form.sections.bundles')}>
            <TierBundlesField control={control} tier={tier} />
          </Section>
        </>
      ) : null}
    </FormDialogFrame>
  );
}
