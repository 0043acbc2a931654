import { zodResolver } from '@hookform/resolvers/zod';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import {
  CUSTOMER_ROLES,
  isStaffRole,
  STAFF_ROLES,
  ZInviteUserRequest,
  type Role,
  type TInviteUserRequest,
} from '@connect/shared';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { invalidParamsOf, isProblem, problemMessage } from '../../../lib/problems.ts';
import { useInviteUser } from '../api/invite-user.ts';
import { FormDialogFrame } from './form-dialog-frame.tsx';

/**
 * The invitation form: the request's own schema (the server validates with it; a customer role
 * needs its organisation's name there). A staff role joins the staff organisation, so the field
 * is hidden.
 */
const ZInviteForm = ZInviteUserRequest;
type InviteForm = z.input<typeof ZInviteForm>;
type InviteValues = z.output<typeof ZInviteForm>;

const FIELDS = ['email', 'firstName', 'lastName', 'role', 'organisationName'] as const;

/** Puts the server's field errors (invalidParams, spec §8) under the fields they name; true when one did. */
export function applyFieldErrors<N extends string>(
  error: unknown,
  fields: readonly N[],
  setError: (name: N, error: { message: string }) => void,
): boolean {
  let applied = false;
  for (const param of invalidParamsOf(error)) {
    if ((fields as readonly string[]).includes(param.name)) {
      setError(param.name as N, { message: param.reason });
      applied = true;
    }
  }
  return applied;
}

/** A role select's options (a Select takes its items directly, not inside a component of ours). */
export function roleItems(roles: readonly Role[], t: TFunction<['staff', 'account']>) {
  return roles.map((role) => (
    <MenuItem key={role} value={role}>
      {t(`account:options.roles.${role}`)}
    </MenuItem>
  ));
}

/** Invite user (POST /management/user/invite): a real invitation with a temporary password. */
export function InviteUserDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['staff', 'account']);
  const snackbar = useSnackbar();
  const invite = useInviteUser();
  const form = useForm<InviteForm, unknown, InviteValues>({
    resolver: zodResolver(ZInviteForm),
    defaultValues: { email: '', firstName: '', lastName: '', organisationName: '' },
    mode: 'onTouched',
  });
  const role = useWatch({ control: form.control, name: 'role' });
  const isStaff = role !== undefined && isStaffRole(role);
  const isSending = form.formState.isSubmitting || invite.isPending;

  const [failure, setFailure] = useState<string | null>(null);

  const handleSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const body: TInviteUserRequest = {
      ...values,
      ...(isStaffRole(values.role) ? { organisationName: undefined } : {}),
    };
    try {
      const invited = await invite.mutateAsync(body);
      snackbar.show({ type: 'success', title: t('users.invite.sent', { email: invited.email }) });
      onClose();
    } catch (error) {
      // The address is taken: said under the email field as well.
      if (isProblem(error, 'USER_EXISTS')) form.setError('email', { message: problemMessage(error) });
      else applyFieldErrors(error, FIELDS, form.setError);
      // Spec §8: 'Invite user failed', with the server's message. Said in the dialog too: while it
      // is open, the page behind it (the notification included) is hidden from screen readers.
      snackbar.show({ type: 'error', title: t('users.invite.failed'), description: problemMessage(error) });
      setFailure(problemMessage(error));
    }
  });

  return (
    <FormDialogFrame
      title={t('users.invite.title')}
      isSending={isSending}
      onSubmit={handleSubmit}
      onClose={onClose}
      failureTitle={t('users.invite.failed')}
      failure={failure}
      cancelLabel={t('users.cancel')}
      submitLabel={t('users.invite.submit')}
    >
      <FormTextField
        control={form.control}
        name="email"
        label={t('users.fields.email')}
        type="email"
        autoComplete="off"
        autoFocus
        required
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField control={form.control} name="firstName" label={t('users.fields.firstName')} required />
        <FormTextField control={form.control} name="lastName" label={t('users.fields.lastName')} required />
      </Stack>
      <FormTextField
        control={form.control}
        name="role"
        label={t('users.fields.role')}
        select
        required
        helperText={t('users.invite.roleHint')}
      >
        {roleItems([...CUSTOMER_ROLES, ...STAFF_ROLES], t)}
      </FormTextField>
      {isStaff ? null : (
        <FormTextField
          control={form.control}
          name="organisationName"
          label={t('users.fields.organisationName')}
          required
          helperText={t('users.invite.organisationHint')}
        />
      )}
    </FormDialogFrame>
  );
}
