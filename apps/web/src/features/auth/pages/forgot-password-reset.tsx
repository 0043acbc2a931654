import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ZCodeMini, ZEmailMini, ZPasswordMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { confirmPasswordReset, requestPasswordReset } from '../../../lib/auth.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { CodeScreen } from '../components/code-screen.tsx';
import type { FormFailure } from '../components/form-error.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { requireMatchingPasswords, ZConfirmPassword } from '../lib/schemas.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
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

  const handleReset = form.handleSubmit(async ({ email, code, password }) => {
    setFailure(null);
    try {
      await confirmPasswordReset(email, code, password);
      await navigate(withQuery(paths.resetPasswordConfirmation, { email }));
    } catch (error) {
      setFailure({ message: identityErrorMessage(error, 'resetPassword') });
    }
  });

  return (
    <CodeScreen
      form={form}
      onSubmit={handleReset}
      failure={failure}
      title={t('forgotPasswordReset.title')}
      codeLabel={t('fields.code')}
      codeHint={t('common.codeHint')}
      submitLabel={t('forgotPasswordReset.submit')}
      emailed={{
        email: emailParam,
        subtitleKey: 'forgotPasswordReset.subtitle',
        subtitleNoEmailKey: 'forgotPasswordReset.subtitleNoEmail',
        resend: {
          prompt: t('forgotPasswordReset.noCode'),
          label: t('forgotPasswordReset.requestNewCode'),
          send: requestPasswordReset,
          onStart: () => setFailure(null),
          onError: (error) => setFailure({ message: identityErrorMessage(error, 'forgotPassword') }),
        },
      }}
    >
      <NewPasswordFields passwordLabel={t('fields.newPassword')} confirmLabel={t('fields.confirmNewPassword')} />
    </CodeScreen>
  );
}
