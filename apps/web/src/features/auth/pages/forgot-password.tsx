import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ZEmailMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { requestPasswordReset } from '../../../lib/auth.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { TextInput } from '../../../components/text-input.tsx';
import { muiField } from '../lib/form.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
import { withQuery } from '../lib/urls.ts';

const ZForgotPassword = z.object({ email: ZEmailMini });

/** /forgot-password: sends a reset code to the account's email. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const emailParam = useEmailParam();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ZForgotPassword),
    mode: 'onTouched',
    defaultValues: { email: emailParam ?? '' },
  });

  const handleRequest = handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      // The pool answers the same for unknown addresses, so this never tells who has an account.
      await requestPasswordReset(email);
      await navigate(withQuery(paths.forgotPasswordReset, { email }));
    } catch (error) {
      setFailure({ message: identityErrorMessage(error, 'forgotPassword') });
    }
  });

  return (
    <>
      <AuthHeader title={t('forgotPassword.title')} subtitle={t('forgotPassword.subtitle')} />
      <FormError failure={failure} />
      <AuthForm onSubmit={handleRequest} isSubmitting={isSubmitting}>
        <TextInput
          {...muiField(register('email'), errors.email)}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <SubmitButton isSubmitting={isSubmitting}>{t('forgotPassword.submit')}</SubmitButton>
      </AuthForm>
      <AuthFooter linkLabel={t('common.backToLogin')} to={paths.login} />
    </>
  );
}
