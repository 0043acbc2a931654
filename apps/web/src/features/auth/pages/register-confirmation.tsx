import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ZCodeMini, ZEmailMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { confirmRegistration, resendRegistrationCode } from '../../../lib/auth.ts';
import { CodeScreen } from '../components/code-screen.tsx';
import type { FormFailure } from '../components/form-error.tsx';
import { identityErrorMessage, isAlreadyConfirmed, isExpiredCode } from '../../../lib/identity-errors.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
import { withQuery } from '../lib/urls.ts';

const ZConfirmation = z.object({ email: ZEmailMini, code: ZCodeMini });

/** /register/confirmation?email=…: the 6-digit code from the sign-up email activates the account. */
export function RegisterConfirmationPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const emailParam = useEmailParam();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const form = useForm({
    resolver: zodResolver(ZConfirmation),
    mode: 'onTouched',
    defaultValues: { email: emailParam ?? '', code: '' },
  });

  function failureFor(error: unknown, step: 'confirmSignUp' | 'resendCode'): FormFailure {
    const message = identityErrorMessage(error, step);
    return isAlreadyConfirmed(error)
      ? {
          message,
          link: { to: withQuery(paths.login, { email: form.getValues('email') }), label: t('common.goToLogin') },
        }
      : { message };
  }

  const handleConfirm = form.handleSubmit(async ({ email, code }) => {
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

  return (
    <CodeScreen
      form={form}
      onSubmit={handleConfirm}
      failure={failure}
      title={t('registerConfirmation.title')}
      codeLabel={t('fields.code')}
      codeHint={t('common.codeHint')}
      submitLabel={t('registerConfirmation.submit')}
      emailed={{
        email: emailParam,
        subtitleKey: 'registerConfirmation.subtitle',
        subtitleNoEmailKey: 'registerConfirmation.subtitleNoEmail',
        resend: {
          prompt: t('registerConfirmation.noCode'),
          label: t('common.resendCode'),
          send: resendRegistrationCode,
          onStart: () => setFailure(null),
          onError: (error) => setFailure(failureFor(error, 'resendCode')),
        },
      }}
    />
  );
}
