import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ZSpendingCapRequest, type TApplicationSpend, type TSpendingCapRequest } from '@connect/shared';
import { useId, useMemo } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { useUpdateSpendingCap } from '../api/update-spending-cap.ts';
import { formatCredits } from '../utils/format.ts';

/**
 * The field is text (what the person typed, kept as typed) read into a number and then checked by
 * the request's own rule, the one the server applies: at least 0.01, at most 10,000,000, two
 * decimals at most.
 */
function capFormSchema(messages: { required: string; notANumber: string }) {
  return z.object({
    monthlyCapCredits: z
      .string()
      .trim()
      .min(1, messages.required)
      .regex(/^\d+(\.\d+)?$/, messages.notANumber)
      .transform(Number)
      .pipe(ZSpendingCapRequest.shape.monthlyCapCredits.unwrap()),
  });
}
type CapForm = z.input<ReturnType<typeof capFormSchema>>;
type CapValues = z.output<ReturnType<typeof capFormSchema>>;

/** Set, change or remove an application's monthly spending cap (PUT /usage/caps/{applicationId}). */
export function SpendingCapDialog({ spend, onClose }: { spend: TApplicationSpend; onClose: () => void }) {
  const { t } = useTranslation('usage');
  const titleId = useId();
  const snackbar = useSnackbar();
  const update = useUpdateSpendingCap();
  const schema = useMemo(
    () => capFormSchema({ required: t('capDialog.required'), notANumber: t('capDialog.notANumber') }),
    [t],
  );
  const form = useForm<CapForm, unknown, CapValues>({
    resolver: zodResolver(schema),
    defaultValues: { monthlyCapCredits: spend.monthlyCapCredits === null ? '' : String(spend.monthlyCapCredits) },
    mode: 'onTouched',
  });
  const isSending = form.formState.isSubmitting || update.isPending;

  const save = async (body: TSpendingCapRequest) => {
    try {
      await update.mutateAsync({ applicationId: spend.applicationId, body });
      snackbar.show({
        type: 'success',
        title: body.monthlyCapCredits === null ? t('capDialog.removed') : t('capDialog.saved'),
      });
      onClose();
    } catch {
      // The error shows in the dialog (update.error) and the form stays as typed.
    }
  };

  const handleSubmit = form.handleSubmit((values) => save({ monthlyCapCredits: values.monthlyCapCredits }));
  const handleClose = () => {
    if (!isSending) onClose();
  };

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{t('capDialog.title', { name: spend.name })}</DialogTitle>
        <DialogContent>
          <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Typography variant="body2" color="text.secondary">
                {t('capDialog.used', { used: formatCredits(spend.usedCredits) })}
              </Typography>
              <FormTextField
                // The field edits the typed text; only the submitted values are numbers.
                control={form.control as unknown as Control<CapForm>}
                name="monthlyCapCredits"
                label={t('capDialog.label')}
                autoFocus
                required
                helperText={t('capDialog.format')}
                slotProps={{
                  htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
                  input: { endAdornment: <InputAdornment position="end">{t('capDialog.unit')}</InputAdornment> },
                }}
              />
              <Typography variant="body2" color="text.secondary">
                {t('capDialog.helper')}
              </Typography>
              {update.isError ? <Alert severity="error">{update.error.message}</Alert> : null}
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          {spend.monthlyCapCredits !== null ? (
            <Button
              color="error"
              onClick={() => void save({ monthlyCapCredits: null })}
              disabled={isSending}
              sx={{ mr: 'auto' }}
            >
              {t('capDialog.remove')}
            </Button>
          ) : null}
          <Button color="inherit" onClick={handleClose} disabled={isSending}>
            {t('capDialog.cancel')}
          </Button>
          <SubmitButton loading={isSending}>{t('capDialog.save')}</SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
