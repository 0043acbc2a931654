import { useTranslation } from 'react-i18next';
import { LoginStatus } from '../components/login-status.tsx';

/** /register/confirmed: the account is active; the next step is to log in. */
export function RegisterConfirmedPage() {
  const { t } = useTranslation('auth');
  return (
    <LoginStatus
      tone="success"
      title={t('registerConfirmed.title')}
      text={t('registerConfirmed.description')}
      buttonLabel={t('common.continueToLogin')}
    />
  );
}
