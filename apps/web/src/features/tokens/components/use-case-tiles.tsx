import EnergySavingsLeafOutlinedIcon from '@mui/icons-material/EnergySavingsLeafOutlined';
import PaymentsOutlinedIcon from '@mui/icons-material/PaymentsOutlined';
import TokenOutlinedIcon from '@mui/icons-material/TokenOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { catalogueHref, type TCatalogueProduct } from '@connect/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { QueryState } from '../../../components/query-state.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useTokenUseCases } from '../api/get-catalogue.ts';

/** The catalogue names icons as Material Symbols do; one it does not know is drawn as a token. */
const ICONS: Record<string, SvgIconComponent> = {
  payments: PaymentsOutlinedIcon,
  energy_savings_leaf: EnergySavingsLeafOutlinedIcon,
};

function Tile({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <CardContent>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Box
          sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', borderRadius: 1.5, p: 1, display: 'flex' }}
          aria-hidden
        >
          {icon}
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
      </Stack>
    </CardContent>
  );
}

function UseCaseTile({ product }: { product: TCatalogueProduct }) {
  const { t } = useTranslation('quantPortfolio');
  const Icon = ICONS[product.icon] ?? TokenOutlinedIcon;
  return (
    <Card variant="outlined" sx={{ flex: 1 }}>
      <CardActionArea
        component={RouterLink}
        to={catalogueHref(product.path, runtimeConfig().productSlug)}
        sx={{ height: '100%' }}
      >
        <Tile icon={<Icon />}>
          <Typography variant="h3" component="h2" sx={{ fontSize: 16, fontWeight: 600 }}>
            {product.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {product.summary}
          </Typography>
          <Typography variant="body2" color="primary" sx={{ mt: 1, fontWeight: 600 }}>
            {t('actions.learnMore')}
          </Typography>
        </Tile>
      </CardActionArea>
    </Card>
  );
}

/** Two tiles' worth of placeholder, the height of the loaded ones (a title, two lines, the link). */
function TilesSkeleton() {
  return (
    <>
      {[0, 1].map((key) => (
        <Card key={key} variant="outlined" sx={{ flex: 1 }} aria-hidden>
          <Tile icon={<Box sx={{ width: 24, height: 24 }} />}>
            <Skeleton width="40%" sx={{ fontSize: 16 }} />
            <Skeleton width="95%" sx={{ mt: 0.5 }} />
            <Skeleton width="70%" />
            <Skeleton width={80} sx={{ mt: 1 }} />
          </Tile>
        </Card>
      ))}
    </>
  );
}

/**
 * The use-case tiles of Token Flow (spec §2.5): the product catalogue's token use cases
 * (`GET /jsons/products.json`; payments and sustainability), each opening its page.
 */
export function UseCaseTiles() {
  const { t } = useTranslation('quantPortfolio');
  const useCases = useTokenUseCases();
  return (
    <Box component="section" aria-label={t('list.useCases')} aria-busy={useCases.isPending} sx={{ mb: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <QueryState
          query={useCases}
          loading={<TilesSkeleton />}
          errorMessage={t('useCases.loadFailed')}
          errorVariant="row"
          wrapError={(error) => (
            <Card variant="outlined" sx={{ flex: 1, px: 2 }}>
              {error}
            </Card>
          )}
        >
          {(products) => products.map((product) => <UseCaseTile key={product.name} product={product} />)}
        </QueryState>
      </Stack>
    </Box>
  );
}
