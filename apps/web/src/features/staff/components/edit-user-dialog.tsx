import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  CUSTOMER_ROLES,
  isStaffRole,
  STAFF_ROLES,
  ZUpdateManagedUserRequest,
  type TManagementUser,
} from '@connect/shared';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { problemMessage } from '../../../lib/problems.ts';
import { useUpdateManagedUser } from '../api/update-managed-user.ts';
import { applyFieldErrors, roleItems } from './invite-user-dialog.tsx';

const ZEditForm = ZUpdateManagedUserRequest.omit({ userId: true });
type EditForm = z.input<typeof ZEditForm>;
type EditValues = z.output<typeof ZEditForm>;

const FIELDS = ['firstName', 'lastName', 'role', 'organisationName'] as const;

/**
 * Edit a user (PUT /management/user): names, role and, for a customer, the organisation. The role
 * stays within its kind (issue 32 §1: staff roles only for staff, customer roles only for
 * customers), so the select offers only that kind.
 */
export function EditUserDialog({ user, onClose }: { user: TManagementUser; onClose: () => void }) {
  const { t } = useTranslation(['staff', 'account']);
  const titleId = useId();
  const snackbar = useSnackbar();
  const update = useUpdateManagedUser();
  const [failure, setFailure] = useState<string | null>(null);
  const isStaff = isStaffRole(user.role);
  const form = useForm<EditForm, unknown, EditValues>({
    resolver: zodResolver(ZEditForm),
    defaultValues: {
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      role: user.role,
      organisationName: user.organisationName ?? '',
    },
    mode: 'onTouched',
  });
  const isSending = form.formState.isSubmitting || update.isPending;

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await update.mutateAsync({
        userId: user.userId,
        ...values,
        ...(isStaff ? { organisationName: undefined } : {}),
      });
      snackbar.show({ type: 'success', title: t('users.edit.saved', { email: user.email }) });
      onClose();
    } catch (error) {
      if (!applyFieldErrors(error, FIELDS, form.setError)) {
        setFailure(problemMessage(error));
      }
    }
  });
  const handleClose = () => {
    if (!isSending) onClose();
  };

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{t('users.edit.title', { email: user.email })}</DialogTitle>
        <DialogContent>
          <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Typography variant="body2" color="text.secondary">
                {isStaff ? t('users.edit.staffHint') : t('users.edit.customerHint')}
              </Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <FormTextField control={form.control} name="firstName" label={t('users.fields.firstName')} required />
                <FormTextField control={form.control} name="lastName" label={t('users.fields.lastName')} required />
              </Stack>
              <FormTextField control={form.control} name="role" label={t('users.fields.role')} select required>
                {roleItems(isStaff ? STAFF_ROLES : CUSTOMER_ROLES, t)}
              </FormTextField>
              {isStaff ? null : (
                <FormTextField
                  control={form.control}
                  name="organisationName"
                  label={t('users.fields.organisationName')}
                />
              )}
              {failure ? <Alert severity="error">{failure}</Alert> : null}
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={handleClose} disabled={isSending}>
            {t('users.cancel')}
          </Button>
          <SubmitButton loading={isSending}>{t('users.edit.submit')}</SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
