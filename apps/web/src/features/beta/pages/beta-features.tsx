import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BETA_MESSAGES, type TBetaFeature } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useBetaFeatures } from '../api/get-beta-features.ts';
import { useSetBetaOptIn } from '../api/set-beta-optin.ts';
import { BetaFeatureCard, BetaFeatureCardSkeleton } from '../components/beta-feature-card.tsx';

function EmptyBeta() {
  const { t } = useTranslation('beta');
  return (
    <Paper variant="outlined" sx={{ textAlign: 'center', py: 6, px: 2 }}>
      <ScienceOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h2" sx={{ mt: 1, fontSize: 18 }}>
        {t('empty.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        {t('empty.body')}
      </Typography>
    </Paper>
  );
}

/**
 * Connect Beta (spec §2.3 `/beta/features`, feature connectBeta; issue 35 §1): the beta features
 * the account may try — the open ones and those it was invited to — each with its opt-in switch.
 * Opting in switches the feature's key on for the account, so the side menu gains its area at
 * once (set-beta-optin.ts reads the route list again); opting out takes it away.
 */
export function BetaFeaturesPage() {
  const { t } = useTranslation('beta');
  const snackbar = useSnackbar();
  const features = useBetaFeatures();
  const change = useSetBetaOptIn();

  const handleChange = (feature: TBetaFeature, optedIn: boolean) =>
    change.mutate(
      { featureId: feature.id, optedIn },
      {
        onSuccess: (answer) =>
          snackbar.show({ type: 'success', title: t(answer.optedIn ? 'optedIn' : 'optedOut', { name: answer.name }) }),
        onError: (error) =>
          snackbar.show({ type: 'error', title: BETA_MESSAGES.optInFailed, description: problemMessage(error) }),
      },
    );

  return (
    <Page title={t('title')} description={t('description')}>
      <QueryState
        query={features}
        loading={
          <Grid container spacing={3}>
            {[0, 1].map((index) => (
              <Grid key={index} size={{ xs: 12, md: 6 }}>
                <BetaFeatureCardSkeleton />
              </Grid>
            ))}
          </Grid>
        }
        errorMessage={(error) => `${t('loadError')} ${problemMessage(error)}`}
        retryLabel={t('retry')}
      >
        {(list) =>
          list.length === 0 ? (
            <EmptyBeta />
          ) : (
            <Grid
              container
              spacing={3}
              component="ul"
              aria-label={t('listLabel')}
              sx={{ listStyle: 'none', p: 0, m: 0 }}
            >
              {list.map((feature) => (
                <Grid key={feature.id} size={{ xs: 12, md: 6 }} component="li">
                  <BetaFeatureCard
                    feature={feature}
                    pending={
                      change.isPending && change.variables.featureId === feature.id ? change.variables.optedIn : null
                    }
                    onChange={(optedIn) => handleChange(feature, optedIn)}
                  />
                </Grid>
              ))}
            </Grid>
          )
        }
      </QueryState>
    </Page>
  );
}
