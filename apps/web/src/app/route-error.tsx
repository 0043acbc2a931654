import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ChunkLoadError } from './lazy.ts';

/** What a route shows when it fails: a chunk that did not load gets a reload action (spec §8). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  const isChunkError = error instanceof ChunkLoadError;
  const title = isChunkError ? t('errors.chunkTitle') : t('errors.pageTitle');
  const description = isChunkError
    ? t('errors.chunkDescription')
    : isRouteErrorResponse(error)
      ? `${error.status} ${error.statusText}`
      : t('errors.pageDescription');
  return (
    <Box
      component="main"
      role="alert"
      sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 4 }}
    >
      <Box>
        <Typography variant="h1" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {description}
        </Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </Button>
      </Box>
    </Box>
  );
}
