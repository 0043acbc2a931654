import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod/mini';
import { MESSAGES } from '@connect/shared/light';
import { ZEmailMini } from '@connect/shared/mini';
import { paths } from '../../../config/paths.ts';
import { resendRegistrationCode } from '../../../lib/auth.ts';
import { AuthForm, SubmitButton } from '../components/auth-form.tsx';
import { FormError, type FormFailure } from '../components/form-error.tsx';
import { LoginStatus } from '../components/login-status.tsx';
import { StatusPanel } from '../components/status-panel.tsx';
import { TextInput } from '../../../components/text-input.tsx';
import { muiField } from '../lib/form.ts';
import { identityErrorMessage, isAlreadyConfirmed } from '../../../lib/identity-errors.ts';
import { useEmailParam } from '../lib/use-email-param.ts';
import { useResendCode } from '../lib/use-resend.ts';
import { withQuery } from '../lib/urls.ts';

/** /activation?status=activated|already-activated|expired&email=…: the registration states of spec §8. */
export function ActivationPage() {
  const [searchParams] = useSearchParams();
  switch (searchParams.get('status')) {
    case 'activated':
      return <Activated />;
    case 'already-activated':
      return <AlreadyActivated />;
    case 'expired':
      return <Expired />;
    default:
      return <UnknownStatus />;
  }
}

function Activated() {
  const { t } = useTranslation('auth');
  return (
    <LoginStatus
      tone="success"
      title={t('activation.activatedTitle')}
      text={t('activation.activatedDescription')}
      buttonLabel={t('common.continueToLogin')}
    />
  );
}

function AlreadyActivated() {
  const { t } = useTranslation('auth');
  return (
    <LoginStatus
      tone="info"
      title={t('activation.alreadyActivatedTitle')}
      text={MESSAGES.emailAlreadyActivated}
      buttonLabel={t('common.continueToLogin')}
    />
  );
}

function UnknownStatus() {
  const { t } = useTranslation('auth');
  return (
    <LoginStatus
      tone="error"
      title={t('activation.unknownTitle')}
      text={MESSAGES.goBackToLogin}
      buttonLabel={t('common.goToLogin')}
    />
  );
}

const ZResend = z.object({ email: ZEmailMini });

/** The code expired (24 hours): send a new one, then enter it on the confirmation page. */
function Expired() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const emailParam = useEmailParam();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ZResend), mode: 'onTouched', defaultValues: { email: emailParam ?? '' } });

  const { resend } = useResendCode(resendRegistrationCode, (error) =>
    setFailure({
      message: identityErrorMessage(error, 'resendCode'),
      ...(isAlreadyConfirmed(error) ? { link: { to: paths.login, label: t('common.goToLogin') } } : {}),
    }),
  );

  const handleResend = handleSubmit(async ({ email }) => {
    setFailure(null);
    if (await resend(email)) await navigate(withQuery(paths.registerConfirmation, { email }));
  });

  return (
    <StatusPanel tone="warning" title={t('activation.expiredTitle')}>
      <Typography sx={{ mb: 3 }}>
        {emailParam ? t('activation.expiredDescription') : t('activation.expiredNoEmail')}
      </Typography>
      <FormError failure={failure} />
      <AuthForm onSubmit={handleResend} isSubmitting={isSubmitting}>
        {emailParam ? null : (
          <TextInput
            {...muiField(register('email'), errors.email)}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
          />
        )}
        <SubmitButton isSubmitting={isSubmitting}>{t('common.resendCode')}</SubmitButton>
        <Button component={RouterLink} to={paths.login} variant="text">
          {t('common.backToLogin')}
        </Button>
      </AuthForm>
    </StatusPanel>
  );
}
