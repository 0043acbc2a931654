import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import { ZCampaignRequest, type TCampaign, type TCampaignRequest } from '@connect/shared';
import { useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useCreateCampaign } from '../api/create-campaign.ts';
import { useUpdateCampaign } from '../api/update-campaign.ts';
import { FormDialogFrame } from './form-dialog-frame.tsx';
import { applyFieldErrors } from './invite-user-dialog.tsx';

/**
 * The form as typed (text fields), read through the request's own schema (ZCampaignRequest, which
 * the server validates with): the participants' text becomes the number it says, or NaN, which
 * the schema refuses with its own words.
 */
const ZCampaignForm = z
  .object({
    name: z.string(),
    visibleName: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    participants: z.string(),
  })
  .transform((form) => ({
    ...form,
    participants: form.participants.trim() === '' ? Number.NaN : Number(form.participants),
  }))
  .pipe(ZCampaignRequest);
type CampaignForm = z.input<typeof ZCampaignForm>;

const FIELDS = ['name', 'visibleName', 'startDate', 'endDate', 'participants'] as const;

/** A new campaign runs over next month by default (campaigns are monthly): its first and last UTC days. */
function nextMonth(now = new Date()): { startDate: string; endDate: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0));
  return { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) };
}

function formValuesOf(campaign: TCampaign | null): CampaignForm {
  if (!campaign) return { name: '', visibleName: '', ...nextMonth(), participants: '' };
  return {
    name: campaign.name,
    visibleName: campaign.visibleName,
    startDate: campaign.startDate,
    endDate: campaign.endDate,
    participants: String(campaign.participants),
  };
}

/**
 * Create or edit a campaign (spec §2 Campaign management): its name for staff, the name customers
 * see, its first and last days (UTC, both included) and how many customers may take part — the
 * customers' "campaign full" comes from it. A new campaign is a draft; `onCreated` gets it (the
 * page opens its tasks). The server's field errors show under their fields.
 */
export function CampaignDialog({
  campaign,
  onClose,
  onCreated,
}: {
  campaign: TCampaign | null;
  onClose: () => void;
  onCreated?: (campaign: TCampaign) => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CampaignForm, unknown, TCampaignRequest>({
    resolver: zodResolver(ZCampaignForm),
    defaultValues: formValuesOf(campaign),
    mode: 'onTouched',
  });
  // The fields edit the typed text; only the submitted values are the request's.
  const control = form.control as unknown as Control<CampaignForm>;
  const isEdit = campaign !== null;
  const isSending = form.formState.isSubmitting || create.isPending || update.isPending;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (campaign) {
        await update.mutateAsync({ campaignId: campaign.id, campaign: values });
        snackbar.show({ type: 'success', title: t('campaigns.form.updated', { name: values.name }) });
        onClose();
      } else {
        const created = await create.mutateAsync(values);
        snackbar.show({ type: 'success', title: t('campaigns.form.created', { name: created.name }) });
        onClose();
        onCreated?.(created);
      }
    } catch (error) {
      applyFieldErrors(error, FIELDS, form.setError);
      // Said in the dialog: while it is open, the page behind it is hidden from screen readers.
      setFailure(problemMessage(error));
    }
  });
  const dateProps = { type: 'date', required: true, slotProps: { inputLabel: { shrink: true } } } as const;

  return (
    <FormDialogFrame
      title={campaign ? t('campaigns.form.editTitle', { name: campaign.name }) : t('campaigns.form.createTitle')}
      isSending={isSending}
      onSubmit={handleSubmit}
      onClose={onClose}
      failureTitle={t(isEdit ? 'campaigns.form.updateFailed' : 'campaigns.form.createFailed')}
      failure={failure}
      cancelLabel={t('campaigns.form.cancel')}
      submitLabel={isEdit ? t('campaigns.form.submitEdit') : t('campaigns.form.submitCreate')}
    >
      <FormTextField
        control={control}
        name="name"
        label={t('campaigns.form.name')}
        helperText={t('campaigns.form.nameHint')}
        required
        autoFocus
        slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
      />
      <FormTextField
        control={control}
        name="visibleName"
        label={t('campaigns.form.visibleName')}
        helperText={t('campaigns.form.visibleNameHint')}
        required
        slotProps={{ htmlInput: { autoComplete: 'off', maxLength: 100 } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField control={control} name="startDate" label={t('campaigns.form.startDate')} {...dateProps} />
        <FormTextField
          control={control}
          name="endDate"
          label={t('campaigns.form.endDate')}
          helperText={t('campaigns.form.datesHint')}
          {...dateProps}
        />
      </Stack>
      <FormTextField
        control={control}
        name="participants"
        label={t('campaigns.form.participants')}
        helperText={t('campaigns.form.participantsHint')}
        required
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
        sx={{ maxWidth: 260 }}
      />
    </FormDialogFrame>
  );
}
