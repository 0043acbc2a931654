import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';
import { ZCodeMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { confirmSignInWithTotp } from '../../../lib/auth.ts';
import { identityErrorMessage, isInvalidSession } from '../../../lib/identity-errors.ts';
import { session } from '../../../lib/storage.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { CodeField } from '../components/code-field.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { startSession } from '../lib/session.ts';

const ZMfaCode = z.object({ code: ZCodeMini });

/** /mfa-submit: the authenticator-app code after a password sign-in (SOFTWARE_TOKEN_MFA). */
export function MfaSubmitPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm({ resolver: zodResolver(ZMfaCode), mode: 'onTouched', defaultValues: { code: '' } });

  const backToLogin = { to: paths.login, label: t('common.backToLogin'), onClick: () => session.clearChallengedUser() };

  const handleVerify = handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      const userUuid = await confirmSignInWithTotp(code);
      if (!userUuid) {
        // No pending challenge in this tab (spec §7: confirming without a challenged user is false).
        session.clearChallengedUser();
        setFailure({ message: MESSAGES.goBackToLogin, link: backToLogin });
        return;
      }
      await startSession(userUuid);
      await navigate(paths.dashboard, { replace: true });
    } catch (error) {
      if (isInvalidSession(error)) {
        // The challenge can be answered once and lives three minutes: only a new sign-in helps.
        session.clearChallengedUser();
        setFailure({ message: identityErrorMessage(error, 'mfa'), link: backToLogin });
        return;
      }
      setFailure({ message: identityErrorMessage(error, 'mfa') });
    }
  });

  return (
    <>
      <AuthHeader title={t('mfaSubmit.title')} subtitle={t('mfaSubmit.subtitle')} />
      <FormError failure={failure} />
      <AuthForm onSubmit={handleVerify} isSubmitting={isSubmitting}>
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
              label={t('fields.mfaCode')}
              error={fieldState.error?.message}
              hint={t('mfaSubmit.codeHint')}
              autoFocus
            />
          )}
        />
        <SubmitButton isSubmitting={isSubmitting}>{t('mfaSubmit.submit')}</SubmitButton>
      </AuthForm>
      <AuthFooter linkLabel={t('common.backToLogin')} to={paths.login} onClick={() => session.clearChallengedUser()} />
    </>
  );
}
