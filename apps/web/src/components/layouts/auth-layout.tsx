import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { paths } from '../../config/paths.ts';
import { Logo } from '../logo.tsx';

/** Public pages (spec §2.1): the product beside a focused card holding the page's form. */
export function AuthLayout() {
  const { t } = useTranslation('auth');
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' } }}>
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: 'common.white',
          background: 'linear-gradient(160deg, #142c8c 0%, #1f3fbf 60%, #2f5bd8 100%)',
        }}
      >
        <Logo to={paths.login} inverted />
        <Box sx={{ maxWidth: 420 }}>
          <Typography variant="h2" component="p" sx={{ fontSize: '2rem', mb: 2 }}>
            {t('layout.headline')}
          </Typography>
          <Typography sx={{ opacity: 0.85 }}>{t('layout.subline')}</Typography>
        </Box>
        <Typography variant="body2" sx={{ opacity: 0.7 }}>
          © {new Date().getFullYear()} {t('layout.company')}
        </Typography>
      </Box>
      <Box component="main" sx={{ display: 'flex', alignItems: 'center', py: 6 }}>
        <Container maxWidth="sm">
          <Box sx={{ display: { md: 'none' }, mb: 4 }}>
            <Logo to={paths.login} />
          </Box>
          <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
            <Outlet />
          </Paper>
        </Container>
      </Box>
    </Box>
  );
}
