import { zodResolver } from '@hookform/resolvers/zod';
import MenuItem from '@mui/material/MenuItem';
import {
  BETA_ACCESS,
  BETA_FEATURE_KEYS,
  BETA_LIMITS,
  ZBetaFeatureForm,
  type TBetaFeatureForm,
  type TManagedBetaFeature,
} from '@connect/shared';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useSaveBetaFeature } from '../api/change-beta-features.ts';
import { featureKeyName } from './beta-feature-table.tsx';
import { FormDialogFrame } from './form-dialog-frame.tsx';
import { applyFieldErrors } from './invite-user-dialog.tsx';

/** The form as typed (the selects start empty), read through the request's own schema. */
const ZBetaForm = z
  .object({ name: z.string(), description: z.string(), featureKey: z.string(), access: z.string() })
  .pipe(ZBetaFeatureForm);
type BetaForm = z.input<typeof ZBetaForm>;

const FIELDS = ['name', 'description', 'featureKey', 'access'] as const;

function formValuesOf(feature: TManagedBetaFeature | null): BetaForm {
  if (!feature) return { name: '', description: '', featureKey: '', access: 'OPEN' };
  const { name, description, featureKey, access } = feature;
  return { name, description, featureKey, access };
}

/**
 * Create or edit a beta feature (issue 35 §1): the name and description customers see on Connect
 * Beta, the feature key an opt-in switches on, and who may opt in (every account with Connect
 * Beta, or only the invited ones). The server's field errors show under their fields.
 */
export function BetaFeatureDialog({ feature, onClose }: { feature: TManagedBetaFeature | null; onClose: () => void }) {
  const { t } = useTranslation('beta');
  const snackbar = useSnackbar();
  const save = useSaveBetaFeature();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<BetaForm, unknown, TBetaFeatureForm>({
    resolver: zodResolver(ZBetaForm),
    defaultValues: formValuesOf(feature),
    mode: 'onTouched',
  });
  const access = useWatch({ control: form.control, name: 'access' });
  const isEdit = feature !== null;
  const isSending = form.formState.isSubmitting || save.isPending;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = await save.mutateAsync({ featureId: feature?.id ?? null, form: values });
      snackbar.show({
        type: 'success',
        title: t(isEdit ? 'management.form.updated' : 'management.form.created', saved),
      });
      onClose();
    } catch (error) {
      applyFieldErrors(error, FIELDS, form.setError);
      setFailure(problemMessage(error));
    }
  });

  return (
    <FormDialogFrame
      title={feature ? t('management.form.editTitle', { name: feature.name }) : t('management.form.createTitle')}
      isSending={isSending}
      onSubmit={handleSubmit}
      onClose={onClose}
      failureTitle={t(isEdit ? 'management.form.updateFailed' : 'management.form.createFailed')}
      failure={failure}
      cancelLabel={t('management.form.cancel')}
      submitLabel={t(isEdit ? 'management.form.submitEdit' : 'management.form.submitCreate')}
    >
      <FormTextField
        control={form.control}
        name="name"
        label={t('management.form.name')}
        helperText={t('management.form.nameHint')}
        required
        autoFocus
        slotProps={{ htmlInput: { autoComplete: 'off', maxLength: BETA_LIMITS.name } }}
      />
      <FormTextField
        control={form.control}
        name="description"
        label={t('management.form.description')}
        helperText={t('management.form.descriptionHint')}
        required
        multiline
        minRows={3}
        slotProps={{ htmlInput: { maxLength: BETA_LIMITS.description } }}
      />
      <FormTextField
        control={form.control}
        name="featureKey"
        label={t('management.form.featureKey')}
        helperText={t('management.form.featureKeyHint')}
        select
        required
      >
        {BETA_FEATURE_KEYS.map((key) => (
          <MenuItem key={key} value={key}>
            {featureKeyName(key, t)} ({key})
          </MenuItem>
        ))}
      </FormTextField>
      <FormTextField
        control={form.control}
        name="access"
        label={t('management.form.access')}
        helperText={
          access === 'INVITATION' ? t('management.form.accessHint.INVITATION') : t('management.form.accessHint.OPEN')
        }
        select
        required
      >
        {BETA_ACCESS.map((value) => (
          <MenuItem key={value} value={value}>
            {t(`management.access.${value}`)}
          </MenuItem>
        ))}
      </FormTextField>
    </FormDialogFrame>
  );
}
