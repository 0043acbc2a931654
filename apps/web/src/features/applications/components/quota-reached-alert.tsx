import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { applicationPaths } from '../paths.ts';

/** All the plan's applications are registered: says so and links to the plan upgrade. */
export function QuotaReachedAlert({ total, id, sx }: { total: number | null; id?: string; sx?: SxProps<Theme> }) {
  const { t } = useTranslation('applicationManager');
  return (
    <Alert
      {...(id ? { id } : {})}
      severity="info"
      {...(sx ? { sx } : {})}
      action={
        <Button component={RouterLink} to={applicationPaths.upgrade} color="inherit" size="small">
          {t('upgrade')}
        </Button>
      }
    >
      {t('quotaReached', { total })}
    </Alert>
  );
}
