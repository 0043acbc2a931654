import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../config/paths.ts';
import { session } from '../lib/storage.ts';

/** Spec §2.1: /404 and /not-found show '404 Page Not Found!'. */
export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <Box component="main" sx={{ minHeight: '70vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 4 }}>
      <Box>
        <Typography variant="h1" sx={{ mb: 2 }}>
          {t('notFound.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('notFound.description')}
        </Typography>
        <Button variant="contained" component={RouterLink} to={session.hasMarker() ? paths.dashboard : paths.login}>
          {session.hasMarker() ? t('notFound.toDashboard') : t('notFound.toLogin')}
        </Button>
      </Box>
    </Box>
  );
}
