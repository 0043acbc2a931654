import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ZCodeMini, ZEmailMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { confirmRegistration, resendRegistrationCode } from '../../../lib/auth.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { CodeField } from '../components/code-field.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { SandboxMailboxNote } from '../components/sandbox-mailbox-note.tsx';
import { TextInput } from '../components/text-input.tsx';
import { muiField } from '../lib/form.ts';
import { identityErrorMessage, isAlreadyConfirmed, isExpiredCode } from '../../../lib/identity-errors.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
import { useResendCode } from '../lib/use-resend.ts';
import { withQuery } from '../lib/urls.ts';

const ZConfirmation = z.object({ email: ZEmailMini, code: ZCodeMini });

/** /register/confirmation?email=…: the 6-digit code from the sign-up email activates the account. */
export function RegisterConfirmationPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const emailParam = useEmailParam();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const {
    register,
    control,
    handleSubmit,
    trigger,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ZConfirmation),
    mode: 'onTouched',
    defaultValues: { email: emailParam ?? '', code: '' },
  });

  function failureFor(error: unknown, step: 'confirmSignUp' | 'resendCode'): FormFailure {
    const message = identityErrorMessage(error, step);
    return isAlreadyConfirmed(error)
      ? { message, link: { to: withQuery(paths.login, { email: getValues('email') }), label: t('common.goToLogin') } }
      : { message };
  }

  const { resend, isSending } = useResendCode(resendRegistrationCode, (error) =>
    setFailure(failureFor(error, 'resendCode')),
  );

  const handleConfirm = handleSubmit(async ({ email, code }) => {
    setFailure(null);
    try {
      await confirmRegistration(email, code);
      await navigate(withQuery(paths.registerConfirmed, { email }));
    } catch (error) {
      if (isExpiredCode(error)) {
        await navigate(withQuery(paths.activation, { status: 'expired', email }));
        return;
      }
      setFailure(failureFor(error, 'confirmSignUp'));
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
        title={t('registerConfirmation.title')}
        subtitle={
          emailParam ? (
            <Trans
              t={t}
              i18nKey="registerConfirmation.subtitle"
              values={{ email: emailParam }}
              components={{ strong: <strong /> }}
            />
          ) : (
            t('registerConfirmation.subtitleNoEmail')
          )
        }
      />
      <FormError failure={failure} />
      <AuthForm onSubmit={handleConfirm} isSubmitting={isSubmitting}>
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
        <SubmitButton isSubmitting={isSubmitting}>{t('registerConfirmation.submit')}</SubmitButton>
      </AuthForm>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
        {t('registerConfirmation.noCode')}{' '}
        <Button
          variant="text"
          size="small"
          onClick={() => void handleResend()}
          loading={isSending}
          disabled={isSubmitting}
        >
          {t('common.resendCode')}
        </Button>
      </Typography>
      <SandboxMailboxNote email={emailParam} />
      <AuthFooter linkLabel={t('common.backToLogin')} to={paths.login} />
    </>
  );
}
