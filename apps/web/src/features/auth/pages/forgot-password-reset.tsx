import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ZCodeMini, ZEmailMini, ZPasswordMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { confirmPasswordReset, requestPasswordReset } from '../../../lib/auth.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { CodeField } from '../components/code-field.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { SandboxMailboxNote } from '../components/sandbox-mailbox-note.tsx';
import { TextInput } from '../components/text-input.tsx';
import { muiField } from '../lib/form.ts';
import { requireMatchingPasswords, ZConfirmPassword } from '../lib/schemas.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
import { useResendCode } from '../lib/use-resend.ts';
import { withQuery } from '../lib/urls.ts';

/** /forgot-password/reset?email=…: the reset code and a new password (spec §5 rules). */
export function ForgotPasswordResetPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const emailParam = useEmailParam();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const schema = useMemo(
    () =>
      requireMatchingPasswords(
        z.object({ email: ZEmailMini, code: ZCodeMini, password: ZPasswordMini, confirmPassword: ZConfirmPassword }),
        t('validation.passwordMismatch'),
      ),
    [t],
  );
  const form = useForm({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { email: emailParam ?? '', code: '', password: '', confirmPassword: '' },
  });
  const {
    register,
    control,
    handleSubmit,
    trigger,
    getValues,
    formState: { errors, isSubmitting },
  } = form;

  const { resend, isSending } = useResendCode(requestPasswordReset, (error) =>
    setFailure({ message: identityErrorMessage(error, 'forgotPassword') }),
  );

  const handleReset = handleSubmit(async ({ email, code, password }) => {
    setFailure(null);
    try {
      await confirmPasswordReset(email, code, password);
      await navigate(withQuery(paths.resetPasswordConfirmation, { email }));
    } catch (error) {
      setFailure({ message: identityErrorMessage(error, 'resetPassword') });
    }
  });

  async function handleResend() {
    if (!(await trigger('email'))) return;
    setFailure(null);
    await resend(getValues('email'));
  }

  return (
    <>
      <AuthHeader
        title={t('forgotPasswordReset.title')}
        subtitle={
          emailParam ? (
            <Trans
              t={t}
              i18nKey="forgotPasswordReset.subtitle"
              values={{ email: emailParam }}
              components={{ strong: <strong /> }}
            />
          ) : (
            t('forgotPasswordReset.subtitleNoEmail')
          )
        }
      />
      <FormError failure={failure} />
      <FormProvider {...form}>
        <AuthForm onSubmit={handleReset} isSubmitting={isSubmitting}>
          {emailParam ? null : (
            <TextInput
              {...muiField(register('email'), errors.email)}
              label={t('fields.email')}
              type="email"
              autoComplete="email"
              autoFocus
            />
          )}
          <Controller
            name="code"
            control={control}
            render={({ field, fieldState }) => (
              <CodeField
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                label={t('fields.code')}
                error={fieldState.error?.message}
                hint={t('common.codeHint')}
                autoFocus={Boolean(emailParam)}
              />
            )}
          />
          <NewPasswordFields passwordLabel={t('fields.newPassword')} confirmLabel={t('fields.confirmNewPassword')} />
          <SubmitButton isSubmitting={isSubmitting}>{t('forgotPasswordReset.submit')}</SubmitButton>
        </AuthForm>
      </FormProvider>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
        {t('forgotPasswordReset.noCode')}{' '}
        <Button
          variant="text"
          size="small"
          onClick={() => void handleResend()}
          loading={isSending}
          disabled={isSubmitting}
        >
          {t('forgotPasswordReset.requestNewCode')}
        </Button>
      </Typography>
      <SandboxMailboxNote email={emailParam} />
      <AuthFooter linkLabel={t('common.backToLogin')} to={paths.login} />
    </>
  );
}
