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

function LoginButton({ label }: { label: string }) {
  const email = useEmailParam();
  return (
    <Button component={RouterLink} to={withQuery(paths.login, { email })} variant="contained" size="large" fullWidth>
      {label}
    </Button>
  );
}

function Activated() {
  const { t } = useTranslation('auth');
  return (
    <StatusPanel
      tone="success"
      title={t('activation.activatedTitle')}
      actions={<LoginButton label={t('common.continueToLogin')} />}
    >
      <Typography>{t('activation.activatedDescription')}</Typography>
    </StatusPanel>
  );
}

function AlreadyActivated() {
  const { t } = useTranslation('auth');
  return (
    <StatusPanel
      tone="info"
      title={t('activation.alreadyActivatedTitle')}
      actions={<LoginButton label={t('common.continueToLogin')} />}
    >
      <Typography>{MESSAGES.emailAlreadyActivated}</Typography>
    </StatusPanel>
  );
}

function UnknownStatus() {
  const { t } = useTranslation('auth');
  return (
    <StatusPanel
      tone="error"
      title={t('activation.unknownTitle')}
      actions={<LoginButton label={t('common.goToLogin')} />}
    >
      <Typography>{MESSAGES.goBackToLogin}</Typography>
    </StatusPanel>
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
