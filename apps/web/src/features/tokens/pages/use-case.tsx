import AddIcon from '@mui/icons-material/Add';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TProductPage } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { useProductPage } from '../api/get-catalogue.ts';
import { tokenPaths } from '../token-paths.ts';

function UseCaseContent({ page }: { page: TProductPage }) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h2">{page.heading}</Typography>
        {page.tokenType ? <Chip size="small" variant="outlined" label={t(`tokenType.${page.tokenType}`)} /> : null}
      </Stack>
      <List disablePadding sx={{ mt: 1 }}>
        {page.points.map((point) => (
          <ListItem key={point} disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <CheckCircleOutlineIcon color="success" aria-hidden />
            </ListItemIcon>
            <ListItemText primary={point} />
          </ListItem>
        ))}
      </List>
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        {page.how}
      </Typography>
    </>
  );
}

/** The loaded content's shape: the heading, three points, the two lines of how to start. */
function UseCaseSkeleton() {
  return (
    <div aria-hidden>
      <Skeleton width="45%" sx={{ fontSize: 24 }} />
      {[0, 1, 2].map((key) => (
        <Stack key={key} direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 1 }}>
          <Skeleton variant="circular" width={24} height={24} />
          <Skeleton sx={{ flex: 1 }} />
        </Stack>
      ))}
      <Skeleton width="90%" sx={{ mt: 2 }} />
      <Skeleton width="60%" />
    </div>
  );
}

/**
 * A token use-case page (spec §2.3): its content from the product catalogue
 * (`GET /jsons/{name}.json`), the page title from the route's.
 */
function UseCasePage({ useCase }: { useCase: 'payments' | 'sustainability' }) {
  const { t } = useTranslation('quantPortfolio');
  const page = useProductPage(useCase);
  return (
    <Page
      title={t(`tiles.${useCase}.title`)}
      description={page.data ? page.data.description : page.isPending ? <Skeleton width={360} /> : undefined}
      actions={
        <Button component={RouterLink} to={tokenPaths.create()} variant="contained" startIcon={<AddIcon />}>
          {t('list.create')}
        </Button>
      }
    >
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, sm: 4 } }} aria-busy={page.isPending}>
          <QueryState
            query={page}
            loading={<UseCaseSkeleton />}
            errorMessage={t('useCases.pageLoadFailed')}
            errorVariant="row"
          >
            {(content) => <UseCaseContent page={content} />}
          </QueryState>
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
