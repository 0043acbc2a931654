import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TUser } from '@connect/shared';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { useUpdateSettings } from '../api/update-settings.ts';
import { AccountSection } from './account-section.tsx';

/** The promotional email preference (PUT /user/settings); the switch shows the saved state. */
export function CommunicationCard({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const update = useUpdateSettings();
  // While saving, the switch shows the requested state; afterwards the server's answer.
  const isChecked = update.isPending ? update.variables.promotionalEmails : user.promotionalEmails;

  return (
    <AccountSection id="communication-title" title={t('myAccount.communication.title')}>
      <FormControlLabel
        control={
          <Switch
            checked={isChecked}
            disabled={update.isPending}
            onChange={(event) =>
              update.mutate(
                { promotionalEmails: event.target.checked },
                { onSuccess: () => snackbar.show({ type: 'success', title: t('myAccount.communication.saved') }) },
              )
            }
          />
        }
        label={t('myAccount.communication.promotional')}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('myAccount.communication.note')}
      </Typography>
      {update.isError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {update.error.message}
        </Alert>
      ) : null}
    </AccountSection>
  );
}
