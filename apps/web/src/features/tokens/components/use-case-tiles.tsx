import EnergySavingsLeafOutlinedIcon from '@mui/icons-material/EnergySavingsLeafOutlined';
import PaymentsOutlinedIcon from '@mui/icons-material/PaymentsOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { tokenPaths } from '../token-paths.ts';

/** The use-case tiles of Token Flow (spec §2.5): payments and sustainability, each opening its page. */
export function UseCaseTiles() {
  const { t } = useTranslation('quantPortfolio');
  const tiles = [
    { key: 'payments', to: tokenPaths.payments(), Icon: PaymentsOutlinedIcon },
    { key: 'sustainability', to: tokenPaths.sustainability(), Icon: EnergySavingsLeafOutlinedIcon },
  ] as const;
  return (
    <Box component="section" aria-label={t('list.useCases')} sx={{ mb: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {tiles.map(({ key, to, Icon }) => (
          <Card key={key} variant="outlined" sx={{ flex: 1 }}>
            <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
              <CardContent>
                <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
                  <Box
                    sx={{
                      bgcolor: 'primary.main',
                      color: 'primary.contrastText',
                      borderRadius: 1.5,
                      p: 1,
                      display: 'flex',
                    }}
                    aria-hidden
                  >
                    <Icon />
                  </Box>
                  <Box>
                    <Typography variant="h3" component="h2" sx={{ fontSize: 16, fontWeight: 600 }}>
                      {t(`tiles.${key}.title`)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                      {t(`tiles.${key}.body`)}
                    </Typography>
                    <Typography variant="body2" color="primary" sx={{ mt: 1, fontWeight: 600 }}>
                      {t('actions.learnMore')}
                    </Typography>
                  </Box>
                </Stack>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
    </Box>
  );
}
