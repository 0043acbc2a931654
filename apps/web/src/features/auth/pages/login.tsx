import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { resendRegistrationCode, signInWithPassword } from '../../../lib/auth.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { PasswordField } from '../components/password-field.tsx';
import { TextInput } from '../../../components/text-input.tsx';
import { lazyValidator, useSmallForm } from '../lib/small-form.ts';
import type { TLogin } from '../lib/login-schema.ts';
import { startSession } from '../lib/session.ts';
import { withQuery } from '../lib/urls.ts';

// The schema, with zod, loads on first use: the page renders without it (README, Performance), and
// without react-hook-form (lib/small-form.ts).
const validateLogin = lazyValidator<TLogin>(async () => (await import('../lib/login-schema.ts')).ZLogin);

/** /login: email and password; then the second factor, a new password, or the email confirmation. */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const initialEmail = searchParams.get('email') ?? '';
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const [defaultValues] = useState(() => ({ email: initialEmail, password: '' }));
  const { field, handleSubmit, errors, isSubmitting } = useSmallForm<TLogin>({
    defaultValues,
    validate: validateLogin,
  });

  // The first key or pointer press means the form is about to be checked: fetch the schema then.
  useEffect(() => {
    const types = ['keydown', 'pointerdown'] as const;
    const preload = () => {
      validateLogin.preload();
      for (const type of types) removeEventListener(type, preload);
    };
    for (const type of types) addEventListener(type, preload, { passive: true });
    return () => {
      for (const type of types) removeEventListener(type, preload);
    };
  }, []);

  const handleLogin = handleSubmit(async ({ email, password }) => {
    setFailure(null);
    try {
      const outcome = await signInWithPassword(email, password);
      switch (outcome.kind) {
        case 'signedIn':
          await startSession(outcome.userUuid);
          // The router's gate sends the user on to the terms or profile pages when needed.
          await navigate(paths.dashboard, { replace: true });
          return;
        case 'mfa':
          await navigate(paths.mfaSubmit);
          return;
        case 'newPassword':
          await navigate(paths.newPassword);
          return;
        case 'confirmSignUp':
          // The first code may have expired or been lost: send a fresh one before asking for it.
          await resendRegistrationCode(email).catch(() => undefined);
          await navigate(withQuery(paths.registerConfirmation, { email }));
          return;
      }
    } catch (error) {
      setFailure({ message: identityErrorMessage(error, 'signIn') });
    }
  });

  return (
    <>
      <AuthHeader title={t('login.title')} subtitle={t('login.subtitle')} />
      <FormError failure={failure ?? (errors.root?.message ? { message: errors.root.message } : null)} />
      <AuthForm onSubmit={handleLogin} isSubmitting={isSubmitting}>
        <TextInput
          {...field('email')}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          autoFocus={!initialEmail}
        />
        <div>
          <PasswordField
            {...field('password')}
            label={t('fields.password')}
            autoComplete="current-password"
            autoFocus={Boolean(initialEmail)}
          />
          <div className="c-field-extra">
            <RouterLink className="c-link c-body2" to={paths.forgotPassword}>
              {t('login.forgotPassword')}
            </RouterLink>
          </div>
        </div>
        <SubmitButton isSubmitting={isSubmitting}>{t('login.submit')}</SubmitButton>
      </AuthForm>
      <AuthFooter text={t('login.noAccount')} linkLabel={t('login.createAccount')} to={paths.register} />
    </>
  );
}
