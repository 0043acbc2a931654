import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  APPLICATION_TYPES,
  ZManagementCreateApplicationRequest,
  type TManagementCreateApplicationResponse,
  type TManagementUser,
} from '@connect/shared';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { invalidParamsOf, problemMessage } from '../../../lib/problems.ts';
import { useCreateManagedApplication } from '../api/create-managed-application.ts';
import { useApplicationRoles } from '../api/get-application-roles.ts';
import { AccountNetworkField } from './account-network-field.tsx';
import { CreatedApplication } from './created-application.tsx';
import { UserEmailField } from './user-email-field.tsx';

/** The form is the request's own schema: the server validates with the same one. */
const ZForm = ZManagementCreateApplicationRequest;
type Form = z.input<typeof ZForm>;
type Values = z.output<typeof ZForm>;

const FIELDS = ['email', 'roleName', 'name', 'callbackUrl', 'applicationType', 'networkIds'] as const;
type Field = (typeof FIELDS)[number];

/** A server field error's field: `networkIds.2` (one refused network) is the networks field. */
function fieldOf(name: string): Field | null {
  const head = name.split('.')[0] ?? '';
  return (FIELDS as readonly string[]).includes(head) ? (head as Field) : null;
}

/**
 * Create an application for a user (spec §2 Application management, §5; issue 33 §2): their email
 * (suggested from the users list), a role, the application's name, callback URL and type, and at
 * least one of their account's networks. The answer's client secret is shown once, in the same
 * dialog, which then only closes through Done.
 */
export function CreateApplicationDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('staff');
  const titleId = useId();
  const snackbar = useSnackbar();
  const create = useCreateManagedApplication();
  const roles = useApplicationRoles();
  const [user, setUser] = useState<TManagementUser | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<TManagementCreateApplicationResponse | null>(null);
  const form = useForm<Form, unknown, Values>({
    resolver: zodResolver(ZForm),
    defaultValues: { email: '', name: '', callbackUrl: '', applicationType: 'testnet', networkIds: [] },
    mode: 'onTouched',
  });
  const roleName = useWatch({ control: form.control, name: 'roleName' });
  const applicationType = useWatch({ control: form.control, name: 'applicationType' });
  const isSending = form.formState.isSubmitting || create.isPending;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await create.mutateAsync(values);
      setCreated(answer);
      snackbar.show({ type: 'success', title: t('applications.create.done', { name: answer.name }) });
    } catch (error) {
      let isField = false;
      for (const param of invalidParamsOf(error)) {
        const field = fieldOf(param.name);
        if (field) {
          form.setError(field, { message: param.reason });
          isField = true;
        }
      }
      // A refusal of no field (the plan's allowance used up, a plan not active) is said above the buttons.
      if (!isField) setFailure(problemMessage(error));
    }
  });
  const handleClose = (_event?: unknown, reason?: string) => {
    // The secret is shown once: a stray click beside the dialog must not lose it.
    if (isSending || (created && reason === 'backdropClick')) return;
    onClose();
  };
  const chooseUser = (email: string, chosen: TManagementUser | null) => {
    form.setValue('email', email, { shouldValidate: form.formState.touchedFields.email === true });
    if (chosen?.accountId !== user?.accountId) form.setValue('networkIds', []);
    setUser(chosen);
  };

  if (created) {
    return (
      <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <DialogTitle id={titleId}>{t('applications.created.title')}</DialogTitle>
        <DialogContent>
          <CreatedApplication created={created} />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={onClose}>
            {t('applications.created.close')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{t('applications.create.title')}</DialogTitle>
        <DialogContent>
          <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Controller
                control={form.control}
                name="email"
                render={({ field, fieldState }) => (
                  <UserEmailField
                    value={field.value ?? ''}
                    onChange={chooseUser}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                    disabled={isSending}
                  />
                )}
              />
              <FormTextField
                control={form.control}
                name="roleName"
                label={t('applications.fields.roleName')}
                select
                required
                helperText={
                  roleName
                    ? roles.data?.roles.find((role) => role.roleName === roleName)?.description
                    : t('applications.create.roleHint')
                }
              >
                {(roles.data?.roles ?? []).map((role) => (
                  <MenuItem key={role.roleName} value={role.roleName}>
                    {t(`applications.roles.${role.roleName}`)}
                  </MenuItem>
                ))}
              </FormTextField>
              <FormTextField control={form.control} name="name" label={t('applications.fields.name')} required />
              <FormTextField
                control={form.control}
                name="callbackUrl"
                label={t('applications.fields.callbackUrl')}
                type="url"
                placeholder="https://"
                required
              />
              <Controller
                control={form.control}
                name="applicationType"
                render={({ field, fieldState }) => (
                  <TextField
                    select
                    required
                    label={t('applications.fields.applicationType')}
                    name={field.name}
                    value={field.value ?? ''}
                    inputRef={field.ref}
                    onBlur={field.onBlur}
                    onChange={(event) => {
                      field.onChange(event);
                      // Another type has other networks: the choice starts again.
                      form.setValue('networkIds', []);
                    }}
                    error={Boolean(fieldState.error)}
                    helperText={fieldState.error?.message ?? t('applications.create.typeHint')}
                  >
                    {APPLICATION_TYPES.map((type) => (
                      <MenuItem key={type} value={type}>
                        {t(`applications.types.${type}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <Controller
                control={form.control}
                name="networkIds"
                render={({ field, fieldState }) => (
                  <AccountNetworkField
                    accountId={user?.accountId}
                    applicationType={applicationType ?? 'testnet'}
                    value={field.value ?? []}
                    onChange={(ids) => {
                      field.onChange(ids);
                      field.onBlur();
                    }}
                    error={fieldState.error?.message}
                    disabled={isSending}
                  />
                )}
              />
              {failure ? <Alert severity="error">{failure}</Alert> : null}
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={() => handleClose()} disabled={isSending}>
            {t('applications.create.cancel')}
          </Button>
          <SubmitButton loading={isSending}>{t('applications.create.submit')}</SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
