import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import type { TUser } from '@connect/shared';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { AccountSection } from '../components/account-section.tsx';
import { BillingDetailsCard } from '../components/billing/billing-details-card.tsx';
import { BusinessDetailsCard } from '../components/business-details-card.tsx';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { CommunicationCard } from '../components/communication-card.tsx';
import { MfaSection } from '../components/mfa-section.tsx';
import { PersonalDetailsCard } from '../components/personal-details-card.tsx';
import { PlanSection } from '../components/plan/plan-section.tsx';
import { SupportCard } from '../components/support-card.tsx';
import { TermsCard } from '../components/terms-card.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';

/**
 * /my-account ('Profile', spec §2.5): personal, business and billing details, the plan (issue 14), terms,
 * security, communication, support.
 */
export function MyAccountPage() {
  const { t } = useTranslation('account');
  const user = useCurrentUser();
  return (
    <Page title={t('myAccount.title')} description={t('myAccount.description')}>
      <QueryState
        query={user}
        loading={
          <Grid container spacing={3} aria-busy="true">
            {[0, 1, 2, 3].map((card) => (
              <Grid key={card} size={{ xs: 12, md: 6 }}>
                <Skeleton variant="rounded" height={220} />
              </Grid>
            ))}
          </Grid>
        }
      >
        {(loaded) => <AccountSections user={loaded} />}
      </QueryState>
    </Page>
  );
}

function AccountSections({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 6 }}>
        <PersonalDetailsCard user={user} />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <BusinessDetailsCard user={user} />
      </Grid>
      <Grid size={12}>
        <BillingDetailsCard />
      </Grid>
      <Grid size={12}>
        <PlanSection />
      </Grid>
      <Grid size={12}>
        <AccountSection id="security-title" title={t('myAccount.security.title')}>
          <Grid container spacing={4}>
            <Grid size={{ xs: 12, md: 6 }}>
              <ChangePasswordForm />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }} sx={{ display: 'flex', gap: 4 }}>
              <Divider orientation="vertical" flexItem sx={{ display: { xs: 'none', md: 'block' } }} />
              <MfaSection user={user} />
            </Grid>
          </Grid>
        </AccountSection>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TermsCard user={user} />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <CommunicationCard user={user} />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <SupportCard />
      </Grid>
    </Grid>
  );
}
