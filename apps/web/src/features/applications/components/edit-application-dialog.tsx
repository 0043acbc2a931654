import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import {
  APPLICATION_MESSAGES,
  ZUpdateApplicationRequest,
  type TApplication,
  type TUpdateApplicationRequest,
} from '@connect/shared';
import { useId } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { invalidParamsOf, isApplicationNameTaken } from '../../../lib/problems.ts';
import { QueryState } from '../../../components/query-state.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { useNetworksForApplication } from '../api/get-application-networks.ts';
import { useUpdateApplication } from '../api/update-application.ts';
import { EnvironmentChip } from './environment-chip.tsx';
import { NameAndCallbackFields } from './name-and-callback-fields.tsx';
import { NetworkChecklist } from './network-checklist.tsx';
import { TestnetSigningField } from './testnet-signing-field.tsx';

type FormValues = { id: string; name: string; callbackUrl: string; networkIds: string[]; testnetSigning: boolean };

function defaultsOf(application: TApplication): FormValues {
  return {
    id: application.id,
    name: application.name,
    callbackUrl: application.callbackUrl,
    networkIds: application.networks.map((n) => n.id),
    testnetSigning: application.testnetSigning,
  };
}

/** The edit dialog of spec §2.5: name, callback URL, associated networks, testnet signing. */
export function EditApplicationDialog({
  application,
  open,
  onClose,
}: {
  application: TApplication;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  const titleId = useId();
  const snackbar = useSnackbar();
  const networks = useNetworksForApplication(application.id);
  const update = useUpdateApplication();
  const form = useForm<FormValues>({
    resolver: zodResolver(ZUpdateApplicationRequest) as unknown as Resolver<FormValues>,
    defaultValues: defaultsOf(application),
    mode: 'onTouched',
  });
  const isSending = form.formState.isSubmitting || update.isPending;

  const handleClose = () => {
    if (isSending) return;
    update.reset();
    form.reset(defaultsOf(application));
    onClose();
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values satisfies TUpdateApplicationRequest);
      snackbar.show({ type: 'success', title: APPLICATION_MESSAGES.updated });
      onClose();
    } catch (error) {
      // The server's field errors (a name taken meanwhile) go under their fields.
      for (const param of invalidParamsOf(error)) {
        const field = param.name.split('.')[0] as keyof FormValues;
        if (field in values) form.setError(field, { message: param.reason });
      }
    }
  });

  // Networks the account deactivated since stay listed while selected, so nothing disappears silently.
  const offered = networks.data ?? [];
  const stale = application.networks.filter((n) => !offered.some((o) => o.id === n.id));
  const choices = [...offered, ...stale];

  return (
    <Dialog open={open} onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{t('edit.title', { name: application.name })}</DialogTitle>
        <DialogContent>
          <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <EnvironmentChip type={application.applicationType} />
                <span>{t('fields.applicationTypeFixed')}</span>
              </Stack>
              <NameAndCallbackFields control={form.control} />
              <QueryState
                query={networks}
                loading={<Skeleton variant="rounded" height={120} />}
                errorMessage={t('networks.loadError')}
              >
                {() => (
                  <Controller
                    control={form.control}
                    name="networkIds"
                    render={({ field, fieldState }) => (
                      <NetworkChecklist
                        networks={choices}
                        value={field.value}
                        onChange={(ids) => {
                          field.onChange(ids);
                          void form.trigger('networkIds');
                        }}
                        error={fieldState.error?.message ?? (form.formState.errors.networkIds?.root?.message as string)}
                      />
                    )}
                  />
                )}
              </QueryState>
              {application.applicationType === 'testnet' ? (
                <Controller
                  control={form.control}
                  name="testnetSigning"
                  render={({ field }) => (
                    <TestnetSigningField
                      value={field.value}
                      onChange={field.onChange}
                      keyId={application.signingKeyId}
                    />
                  )}
                />
              ) : null}
              {update.isError && !isApplicationNameTaken(update.error) ? (
                <Alert severity="error">{update.error.message}</Alert>
              ) : null}
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={handleClose} disabled={isSending}>
            {t('actions.cancel')}
          </Button>
          <SubmitButton loading={isSending}>{t('actions.save')}</SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
