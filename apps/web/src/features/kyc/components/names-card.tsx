import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TUser } from '@connect/shared';
import { paths } from '../../../config/paths.ts';

/** The profile names the document is compared with (spec §5), with a way to fix them first. */
export function NamesCard({ user }: { user: TUser }) {
  const { t } = useTranslation('kyc');
  const isLocked = user.onfidoApplicantStatus === 'VERIFIED';
  const isMissing = !user.firstName || !user.lastName;
  return (
    <Card component="section" aria-labelledby="kyc-names-title">
      <CardContent>
        <Typography id="kyc-names-title" variant="h3" component="h2" gutterBottom>
          {t('names.title')}
        </Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
          {t('names.description')}
        </Typography>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 1, columnGap: 3 }}
        >
          <Typography component="dt" color="text.secondary">
            {t('names.firstName')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {user.firstName || t('names.notSet')}
          </Typography>
          <Typography component="dt" color="text.secondary">
            {t('names.lastName')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {user.lastName || t('names.notSet')}
          </Typography>
        </Box>
        {isMissing ? (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('names.missing')}{' '}
            <Link component={RouterLink} to={paths.myAccount}>
              {t('names.edit')}
            </Link>
          </Alert>
        ) : isLocked ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t('names.locked')}
          </Typography>
        ) : (
          <Link component={RouterLink} to={paths.myAccount} sx={{ display: 'inline-block', mt: 2 }}>
            {t('names.edit')}
          </Link>
        )}
      </CardContent>
    </Card>
  );
}
