import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { StatusPanel } from '../components/status-panel.tsx';
import { useEmailParam } from '../lib/use-email-param.ts';
import { withQuery } from '../lib/urls.ts';

/** /reset-password/confirmation: the password was changed; log in with the new one. */
export function ResetPasswordConfirmationPage() {
  const { t } = useTranslation('auth');
  const email = useEmailParam();
  return (
    <StatusPanel
      tone="success"
      title={t('resetPasswordConfirmation.title')}
      actions={
        <Button
          component={RouterLink}
          to={withQuery(paths.login, { email })}
          variant="contained"
          size="large"
          fullWidth
        >
          {t('common.continueToLogin')}
        </Button>
      }
    >
      <Typography>{t('resetPasswordConfirmation.description')}</Typography>
    </StatusPanel>
  );
}
