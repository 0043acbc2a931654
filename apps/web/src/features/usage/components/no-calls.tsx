import QueryStatsOutlinedIcon from '@mui/icons-material/QueryStatsOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/** The period has no calls and no deployments: where calls come from, and how to make the first. */
export function NoCalls() {
  const { t } = useTranslation('usage');
  return (
    <Card component="section" aria-labelledby="no-calls-title" sx={{ textAlign: 'center', py: 6, px: 2 }}>
      <QueryStatsOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
      <Typography id="no-calls-title" variant="h3" component="h2" sx={{ mt: 1 }}>
        {t('empty.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
        {t('empty.body')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'center' }}>
        <Button variant="contained" component={RouterLink} to={paths.myApplications}>
          {t('empty.applications')}
        </Button>
        <Button variant="outlined" href={runtimeConfig().documentationUrl} target="_blank" rel="noopener noreferrer">
          {t('empty.docs')}
        </Button>
      </Stack>
    </Card>
  );
}
