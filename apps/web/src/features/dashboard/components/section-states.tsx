import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A section with nothing to show yet: an icon and one sentence. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2, color: 'text.secondary' }}>
      <InboxOutlinedIcon aria-hidden />
      <Typography>{children}</Typography>
    </Box>
  );
}

/** The product areas loading: four cards of their final height (one row on large screens). */
export function FeaturesSkeleton() {
  const { t } = useTranslation('account');
  return (
    // A named group: a label on a plain element is not allowed (axe aria-prohibited-attr).
    <Grid container spacing={2} role="group" aria-busy="true" aria-label={t('dashboard.features.loading')}>
      {[0, 1, 2, 3].map((card) => (
        <Grid key={card} size={{ xs: 12, sm: 6, lg: 3 }}>
          <Skeleton variant="rounded" height={148} />
        </Grid>
      ))}
    </Grid>
  );
}
