import { useTranslation } from 'react-i18next';
import { LoginStatus } from '../components/login-status.tsx';

/** /reset-password/confirmation: the password was changed; log in with the new one. */
export function ResetPasswordConfirmationPage() {
  const { t } = useTranslation('auth');
  return (
    <LoginStatus
      tone="success"
      title={t('resetPasswordConfirmation.title')}
      text={t('resetPasswordConfirmation.description')}
      buttonLabel={t('common.continueToLogin')}
    />
  );
}
