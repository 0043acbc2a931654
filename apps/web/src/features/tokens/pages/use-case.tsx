import AddIcon from '@mui/icons-material/Add';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { tokenPaths } from '../token-paths.ts';

function UseCasePage({ useCase }: { useCase: 'payments' | 'sustainability' }) {
  const { t } = useTranslation('quantPortfolio');
  const points = t(`tiles.${useCase}.points`, { returnObjects: true }) as string[];
  return (
    <Page
      title={t(`tiles.${useCase}.heading`)}
      description={t(`tiles.${useCase}.description`)}
      actions={
        <Button component={RouterLink} to={tokenPaths.create()} variant="contained" startIcon={<AddIcon />}>
          {t('list.create')}
        </Button>
      }
    >
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <List disablePadding>
            {points.map((point) => (
              <ListItem key={point} disableGutters>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <CheckCircleOutlineIcon color="success" aria-hidden />
                </ListItemIcon>
                <ListItemText primary={point} />
              </ListItem>
            ))}
          </List>
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {t(`tiles.${useCase}.how`)}
          </Typography>
          <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
            <Button component={RouterLink} to={tokenPaths.tokenFlow()} color="inherit">
              {t('actions.backToTokenFlow')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Page>
  );
}

/** /{product}-flows/token-flow/payments (spec §2.3 use-case page). */
export function PaymentsPage() {
  return <UseCasePage useCase="payments" />;
}

/** /{product}-flows/token-flow/sustainability (spec §2.3 use-case page). */
export function SustainabilityPage() {
  return <UseCasePage useCase="sustainability" />;
}
