import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TManagementCreateApplicationResponse } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { NOT_RECORDED } from '../../../lib/outside-tools/index.ts';
import { Identifier } from './identifier.tsx';

/**
 * The application staff just created, with its client secret: shown this once (only its hash is
 * kept), so the warning says so before anything else, and each value has its copy button.
 */
export function CreatedApplication({ created }: { created: TManagementCreateApplicationResponse }) {
  const { t } = useTranslation('staff');
  const row = (label: string, value: string, copyLabel: string, isSecret = false) => (
    <Stack spacing={0.25} {...(isSecret ? NOT_RECORDED : {})}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Identifier value={value} copyLabel={copyLabel} isFull />
    </Stack>
  );
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Alert severity="warning">
        <AlertTitle>{t('applications.created.warningTitle')}</AlertTitle>
        {t('applications.created.warning', { email: created.owner.email })}
      </Alert>
      <Typography>
        {t('applications.created.summary', {
          name: created.name,
          email: created.owner.email,
          role: t(`applications.roles.${created.roleName}`),
        })}
      </Typography>
      {row(t('applications.created.clientId'), created.clientId, t('applications.created.copyClientId'))}
      {row(t('applications.created.clientSecret'), created.clientSecret, t('applications.created.copySecret'), true)}
      <Typography variant="body2" color="text.secondary">
        {t('applications.created.emailed', { email: created.owner.email })}
      </Typography>
    </Stack>
  );
}
