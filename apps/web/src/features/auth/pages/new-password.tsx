import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';
import { ZPasswordMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { completeNewPassword } from '../../../lib/auth.ts';
import { identityErrorMessage, isErrorNamed, isInvalidSession } from '../../../lib/identity-errors.ts';
import { session } from '../../../lib/storage.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { requireMatchingPasswords, ZConfirmPassword } from '../lib/schemas.ts';
import { startSession } from '../lib/session.ts';

/**
 * /new-password: the forced new-password step after signing in with a temporary password. The
 * sign-in stored that password in session storage; without it this step cannot be completed.
 */
export function NewPasswordPage() {
  const { t } = useTranslation('auth');
  // Read once: completing the step removes it, and the page must not flip to the error meanwhile.
  const [hasTemporaryPassword] = useState(() => Boolean(session.temporaryPassword()));
  if (!hasTemporaryPassword) {
    return (
      <>
        <AuthHeader title={t('newPassword.title')} />
        <Alert severity="error" sx={{ mb: 3 }}>
          {MESSAGES.goBackToLogin}
        </Alert>
        <Button component={RouterLink} to={paths.login} variant="contained" size="large" fullWidth>
          {t('common.backToLogin')}
        </Button>
      </>
    );
  }
  return <NewPasswordForm />;
}

function NewPasswordForm() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const schema = useMemo(
    () =>
      requireMatchingPasswords(
        z.object({ password: ZPasswordMini, confirmPassword: ZConfirmPassword }),
        t('validation.passwordMismatch'),
      ),
    [t],
  );
  const form = useForm({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const handleSave = handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      const userUuid = await completeNewPassword(password);
      await startSession(userUuid);
      await navigate(paths.dashboard, { replace: true });
    } catch (error) {
      // A spent or expired challenge (or a second factor this step cannot ask for) needs a new sign-in.
      const needsSignIn = isInvalidSession(error) || isErrorNamed(error, 'MfaRequired');
      setFailure({
        message: identityErrorMessage(error, 'newPassword'),
        ...(needsSignIn ? { link: { to: paths.login, label: t('common.backToLogin') } } : {}),
      });
    }
  });

  return (
    <>
      <AuthHeader title={t('newPassword.title')} subtitle={t('newPassword.subtitle')} />
      <FormError failure={failure} />
      <FormProvider {...form}>
        <AuthForm onSubmit={handleSave} isSubmitting={isSubmitting}>
          <NewPasswordFields
            passwordLabel={t('fields.newPassword')}
            confirmLabel={t('fields.confirmNewPassword')}
            autoFocus
          />
          <SubmitButton isSubmitting={isSubmitting}>{t('newPassword.submit')}</SubmitButton>
        </AuthForm>
      </FormProvider>
      <AuthFooter linkLabel={t('common.backToLogin')} to={paths.login} />
    </>
  );
}
