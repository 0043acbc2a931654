import Stack from '@mui/material/Stack';
import { useEffect, useId } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { muiField } from '../lib/form.ts';
import { PasswordField } from './password-field.tsx';
import { PasswordHints } from './password-hints.tsx';

type PasswordValues = { password: string; confirmPassword: string };

/**
 * A new password with the policy's live checklist, and its confirmation. Used inside a
 * FormProvider whose schema has `password` and `confirmPassword` (see requireMatchingPasswords).
 */
export function NewPasswordFields({
  passwordLabel,
  confirmLabel,
  autoFocus,
}: {
  passwordLabel: string;
  confirmLabel: string;
  autoFocus?: boolean;
}) {
  const { register, control, trigger } = useFormContext<PasswordValues>();
  const { errors, touchedFields } = useFormState({ control });
  const password = useWatch({ control, name: 'password' }) ?? '';
  const hintsId = useId();
  const isConfirmTouched = Boolean(touchedFields.confirmPassword);

  // Once the confirmation has been left, changing the password re-checks that they still match.
  useEffect(() => {
    if (isConfirmTouched) void trigger('confirmPassword');
  }, [password, isConfirmTouched, trigger]);

  return (
    <>
      <Stack spacing={1.5}>
        <PasswordField
          {...muiField(register('password'), errors.password)}
          label={passwordLabel}
          autoComplete="new-password"
          describedBy={hintsId}
          autoFocus={autoFocus}
        />
        <PasswordHints id={hintsId} password={password} />
      </Stack>
      <PasswordField
        {...muiField(register('confirmPassword'), errors.confirmPassword)}
        label={confirmLabel}
        autoComplete="new-password"
      />
    </>
  );
}
