import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state.tsx';
import { useContentFeatures } from '../api/get-content-features.ts';
import { EmptyState, FeaturesSkeleton } from './section-states.tsx';
import { FeaturesList } from './features-list.tsx';

/**
 * The dashboard's product areas (GET /content/features) below its heading. Below the fold on
 * every screen, so the dashboard loads this module, its eleven icons and its request only when
 * the section comes into view (pages/dashboard.tsx).
 */
export function FeaturesSection() {
  const { t } = useTranslation('account');
  const features = useContentFeatures();
  return (
    <QueryState
      query={features}
      loading={<FeaturesSkeleton />}
      errorMessage={t('dashboard.features.loadFailed')}
      errorVariant="row"
      wrapError={(error) => (
        <Card>
          <CardContent>{error}</CardContent>
        </Card>
      )}
    >
      {(list) =>
        list.length === 0 ? (
          <Card>
            <CardContent>
              <EmptyState>{t('dashboard.features.empty')}</EmptyState>
            </CardContent>
          </Card>
        ) : (
          <FeaturesList features={list} />
        )
      }
    </QueryState>
  );
}
