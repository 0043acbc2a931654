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
  // Plain elements (styles/plain.css): the message must show even when no further chunk loads.
  return (
    <main role="alert" className="c-centred" style={{ minHeight: '60vh' }}>
      <div>
        <h1 className="c-h1" style={{ marginBottom: 8 }}>
          {title}
        </h1>
        <p className="c-body1 c-secondary" style={{ marginBottom: 24 }}>
          {description}
        </p>
        <button type="button" className="c-button" onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </button>
      </div>
    </main>
  );
}
