import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import { useId, useMemo, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ZEmailMini, ZPasswordMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { register as signUp } from '../../../lib/auth.ts';
import { identityErrorMessage, isErrorNamed } from '../../../lib/identity-errors.ts';
import { AuthFooter } from '../components/auth-footer.tsx';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { AuthHeader } from '../components/auth-header.tsx';
import { CaptchaField } from '../components/captcha-field.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import { TextInput } from '../../../components/text-input.tsx';
import { TERMS_OF_USE_URL } from '../constants.ts';
import { muiField } from '../lib/form.ts';
import { requireMatchingPasswords, ZConfirmPassword } from '../lib/schemas.ts';
import { withQuery } from '../lib/urls.ts';

/** /register: email, password (spec §5 rules), confirmation, terms and the captcha. */
export function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const termsErrorId = useId();
  const schema = useMemo(
    () =>
      requireMatchingPasswords(
        z.object({
          email: ZEmailMini,
          password: ZPasswordMini,
          confirmPassword: ZConfirmPassword,
          acceptTerms: z.boolean().check(z.refine(Boolean, { message: t('validation.termsRequired') })),
          captcha: z.string().check(z.minLength(1, { message: t('validation.captchaRequired') })),
        }),
        t('validation.passwordMismatch'),
      ),
    [t],
  );
  const form = useForm({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '', confirmPassword: '', acceptTerms: false, captcha: '' },
  });
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors, isSubmitting },
  } = form;

  const handleRegister = handleSubmit(async ({ email, password, captcha }) => {
    setFailure(null);
    try {
      await signUp(email, password, captcha);
      await navigate(withQuery(paths.registerConfirmation, { email }));
    } catch (error) {
      // A captcha solution is accepted once, whatever the outcome: the user verifies again.
      setValue('captcha', '');
      setFailure({
        message: identityErrorMessage(error, 'signUp'),
        ...(isErrorNamed(error, 'UsernameExistsException')
          ? { link: { to: withQuery(paths.login, { email }), label: t('register.login') } }
          : {}),
      });
    }
  });

  return (
    <>
      <AuthHeader title={t('register.title')} subtitle={t('register.subtitle')} />
      <FormError failure={failure} />
      <FormProvider {...form}>
        <AuthForm onSubmit={handleRegister} isSubmitting={isSubmitting}>
          <TextInput
            {...muiField(register('email'), errors.email)}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
          />
          <NewPasswordFields passwordLabel={t('fields.password')} confirmLabel={t('fields.confirmPassword')} />
          <Controller
            name="captcha"
            control={control}
            render={({ field, fieldState }) => (
              <CaptchaField
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            name="acceptTerms"
            control={control}
            render={({ field, fieldState }) => (
              <Box>
                <FormControlLabel
                  control={
                    <Checkbox
                      name={field.name}
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                      slotProps={{
                        input: {
                          ref: field.ref,
                          'aria-invalid': Boolean(fieldState.error),
                          ...(fieldState.error ? { 'aria-describedby': termsErrorId } : {}),
                        },
                      }}
                    />
                  }
                  label={
                    <Trans
                      t={t}
                      i18nKey="register.acceptTerms"
                      components={{ terms: <Link href={TERMS_OF_USE_URL} target="_blank" rel="noopener" /> }}
                    />
                  }
                />
                {fieldState.error ? (
                  <FormHelperText id={termsErrorId} error sx={{ mt: 0, mx: 1.75 }}>
                    {fieldState.error.message}
                  </FormHelperText>
                ) : null}
              </Box>
            )}
          />
          <SubmitButton isSubmitting={isSubmitting}>{t('register.submit')}</SubmitButton>
        </AuthForm>
      </FormProvider>
      <AuthFooter text={t('register.haveAccount')} linkLabel={t('register.login')} to={paths.login} />
    </>
  );
}
