import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { WhenVisible } from '../../../components/when-visible.tsx';
import { loadChunk } from '../../../app/lazy.ts';
import { useShowsGettingStartedChecklist } from '../../../lib/outside-tools/index.ts';
import { fetchPlansQuery, subscriptionQuery } from '../../../lib/plans/api.ts';
import { session } from '../../../lib/storage.ts';
import { useEarlierNews, useLatestUpdates } from '../api/get-content-updates.ts';
import { GettingStarted } from '../components/getting-started.tsx';
import { NewsList } from '../components/news-list.tsx';
import { CreditsCard, PlanCard } from '../components/plan-cards.tsx';
import { EmptyState, FeaturesSkeleton } from '../components/section-states.tsx';
import { UpdatesCarousel } from '../components/updates-carousel.tsx';
import { availableFeaturesQuery, useCurrentUser } from '../../../lib/current-user.ts';

/** Below the fold: its code loads when the section comes into view (WhenVisible below). */
const FeaturesSection = lazy(() =>
  loadChunk(() => import('../components/features-section.tsx')).then((module) => ({ default: module.FeaturesSection })),
);

/** morning before 12, afternoon before 18, evening after: the local clock of the reader. */
function partOfDay(date: Date): 'morning' | 'afternoon' | 'evening' {
  const hour = date.getHours();
  if (hour < 12) return 'morning';
  return hour < 18 ? 'afternoon' : 'evening';
}

function SectionCard({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id} sx={{ height: '100%' }}>
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Typography id={id} variant="h3" component="h2" sx={{ mb: 2 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/**
 * /dashboard: the getting-started checklist, plan and credits, the latest updates (carousel), the
 * earlier news and the product areas.
 */
export function DashboardPage() {
  const { t } = useTranslation('account');
  const user = useCurrentUser();
  // The banner and My account read the same queries: one request serves them all.
  const subscription = useQuery(subscriptionQuery());
  const plans = useQuery({
    ...fetchPlansQuery(),
    select: (response) => response.groups.flatMap((group) => group.tiers),
  });
  const userUuid = session.userUuid() ?? '';
  const totals = useQuery({ ...availableFeaturesQuery(userUuid), enabled: userUuid !== '' });
  const updates = useLatestUpdates();
  const news = useEarlierNews();
  // The onboarding tool's embedded default; a configured, allowed onboarding provider takes its place.
  const showsChecklist = useShowsGettingStartedChecklist();
  // Greeted by first name; without one (the bootstrapped administrator has none until the
  // profile is filled in, and none while loading) one sentence, with no full stop where it was.
  const firstName = user.data?.firstName?.trim();
  const greeting = t(`dashboard.greeting.${partOfDay(new Date())}`, {
    context: firstName ? 'named' : undefined,
    name: firstName,
  });

  return (
    <Page title={t('dashboard.title')} description={greeting}>
      <Grid container spacing={3}>
        {user.data && showsChecklist ? (
          <Grid size={12}>
            <GettingStarted userId={user.data.id} />
          </Grid>
        ) : null}
        <Grid size={{ xs: 12, md: 6 }}>
          <PlanCard subscription={subscription} features={totals.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <CreditsCard subscription={subscription} plans={plans.data} />
        </Grid>

        <Grid size={{ xs: 12, md: 7, lg: 8 }}>
          <SectionCard id="updates-title" title={t('dashboard.updates.title')}>
            <QueryState
              query={updates}
              loading={
                // The carousel's size: its slide area (168 px high at least) and its controls row.
                <Box role="group" aria-busy="true" aria-label={t('dashboard.updates.loading')}>
                  <Stack direction="row" spacing={2.5} sx={{ minHeight: 168 }}>
                    <Skeleton
                      variant="rounded"
                      width={160}
                      height={120}
                      sx={{ display: { xs: 'none', sm: 'block' } }}
                    />
                    <Box sx={{ flex: 1 }}>
                      <Skeleton width={80} />
                      <Skeleton width="60%" height={32} />
                      <Skeleton />
                      <Skeleton width="80%" />
                    </Box>
                  </Stack>
                  <Skeleton variant="rounded" width={160} height={30} sx={{ mt: 2 }} />
                </Box>
              }
              errorMessage={t('dashboard.updates.loadFailed')}
              errorVariant="row"
            >
              {({ content }) =>
                content.length === 0 ? (
                  <EmptyState>{t('dashboard.updates.empty')}</EmptyState>
                ) : (
                  <UpdatesCarousel updates={content} labelledBy="updates-title" />
                )
              }
            </QueryState>
          </SectionCard>
        </Grid>
        <Grid size={{ xs: 12, md: 5, lg: 4 }}>
          <SectionCard id="news-title" title={t('dashboard.news.title')}>
            <QueryState
              query={news}
              loading={
                <Stack spacing={2} role="group" aria-busy="true" aria-label={t('dashboard.news.loading')}>
                  {[0, 1, 2].map((row) => (
                    <Box key={row}>
                      <Skeleton width={80} />
                      <Skeleton width="70%" />
                    </Box>
                  ))}
                </Stack>
              }
              errorMessage={t('dashboard.news.loadFailed')}
              errorVariant="row"
            >
              {({ content }) =>
                content.length === 0 ? (
                  <EmptyState>{t('dashboard.news.empty')}</EmptyState>
                ) : (
                  <NewsList updates={content} />
                )
              }
            </QueryState>
          </SectionCard>
        </Grid>

        <Grid size={12} component="section" aria-labelledby="features-title">
          <Typography id="features-title" variant="h2" sx={{ mb: 2 }}>
            {t('dashboard.features.title')}
          </Typography>
          <WhenVisible placeholder={<FeaturesSkeleton />}>
            <Suspense fallback={<FeaturesSkeleton />}>
              <FeaturesSection />
            </Suspense>
          </WhenVisible>
        </Grid>
      </Grid>
    </Page>
  );
}
