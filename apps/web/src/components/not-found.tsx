import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../config/paths.ts';
import { session } from '../lib/storage.ts';

/** Spec §2.1: /404 and /not-found show '404 Page Not Found!'. */
export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <main className="c-centred" style={{ minHeight: '70vh' }}>
      <div>
        <h1 className="c-h1" style={{ marginBottom: 16 }}>
          {t('notFound.title')}
        </h1>
        <p className="c-body1 c-secondary" style={{ marginBottom: 24 }}>
          {t('notFound.description')}
        </p>
        <RouterLink className="c-button" to={session.hasMarker() ? paths.dashboard : paths.login}>
          {session.hasMarker() ? t('notFound.toDashboard') : t('notFound.toLogin')}
        </RouterLink>
      </div>
    </main>
  );
}
