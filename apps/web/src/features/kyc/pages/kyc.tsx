import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { canStartKycCheck, type TKycStatusResponse, type TUser } from '@connect/shared';
import { Page } from '../../../components/page.tsx';
import { combineQueries, QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { currentUserQuery, useCurrentUser } from '../../../lib/current-user.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useKycStatus } from '../api/get-kyc-status.ts';
import { KycStatusChip, SandboxChip } from '../components/kyc-status-chip.tsx';
import { NamesCard } from '../components/names-card.tsx';
import { OnfidoVerification } from '../components/onfido-verification.tsx';
import { SandboxVerificationForm } from '../components/sandbox-verification-form.tsx';
import { useDisplayKycMessage } from '../kyc-message.ts';

type ContinueTarget = { to: string; labelKey: string };

/**
 * Where "continue" leads once verified: on to selecting networks when the select-networks guard
 * sent the user here, back to the area the page was opened from otherwise (spec §2.3, §5).
 */
export function continueTarget(pathname: string, isSelectNetworks: boolean, slug: string): ContinueTarget {
  if (isSelectNetworks) return { to: paths.selectNewNetworks, labelKey: 'continue.selectNetworks' };
  if (pathname.startsWith(paths.myApplications)) return { to: paths.myApplications, labelKey: 'continue.applications' };
  if (pathname.startsWith(paths.myAccount)) return { to: paths.myAccount, labelKey: 'continue.account' };
  return { to: `${paths.flows(slug)}/token-flow`, labelKey: 'continue.flows' };
}

/**
 * Identity verification (spec §2.3 /{product}-flows/kyc, /my-applications/kyc, /my-account/kyc):
 * why, the current status, the names checked, and the way to verify — the sandbox form or the
 * Onfido SDK, depending on the server's provider.
 */
export function KycPage() {
  const { t } = useTranslation('kyc');
  const user = useCurrentUser();
  const status = useKycStatus();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const isSelectNetworks = searchParams.get('selectNetworks') === 'true';
  const target = continueTarget(pathname, isSelectNetworks, runtimeConfig().productSlug);

  // The check settled (or the user record is behind): load the user again, so guards such as
  // select-networks see the new status. Loading the user also clears displayKycMessage (spec §4).
  const settled = status.data?.status;
  const shown = user.data?.onfidoApplicantStatus;
  const userId = user.data?.id;
  useEffect(() => {
    if (!settled || !shown || !userId || settled === shown) return;
    void queryClient.invalidateQueries({ queryKey: currentUserQuery(userId).queryKey });
  }, [settled, shown, userId, queryClient]);

  return (
    <Page title={t('title')} description={t('description')}>
      {isSelectNetworks && settled !== 'VERIFIED' ? (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('selectNetworksNotice')}
        </Alert>
      ) : null}
      <QueryState
        query={combineQueries(status, user)}
        loading={
          <Grid container spacing={3} aria-busy="true" aria-label={t('status.loading')}>
            <Grid size={{ xs: 12, md: 8 }}>
              <Skeleton variant="rounded" height={180} sx={{ mb: 3 }} />
              <Skeleton variant="rounded" height={280} />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <Skeleton variant="rounded" height={220} sx={{ mb: 3 }} />
              <Skeleton variant="rounded" height={200} />
            </Grid>
          </Grid>
        }
        errorMessage={(error) => `${t('status.loadFailed')} ${problemMessage(error)}`}
      >
        {([kycStatus, kycUser]) => (
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, md: 8 }}>
              <Stack spacing={3}>
                <StatusCard status={kycStatus} user={kycUser} target={target} />
                {canStartKycCheck(kycStatus.status) ? <VerifyCard status={kycStatus} user={kycUser} /> : null}
              </Stack>
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <Stack spacing={3}>
                <NamesCard user={kycUser} />
                <WhyCard />
              </Stack>
            </Grid>
          </Grid>
        )}
      </QueryState>
    </Page>
  );
}

function StatusCard({ status, user, target }: { status: TKycStatusResponse; user: TUser; target: ContinueTarget }) {
  const { t } = useTranslation('kyc');
  const displayKycMessage = useDisplayKycMessage();
  const check = status.check;
  const reason = status.status === 'FAILED' ? check?.reason : null;
  return (
    <Card component="section" aria-labelledby="kyc-status-title">
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
          <Typography id="kyc-status-title" variant="h3" component="h2">
            {t('status.title')}
          </Typography>
          <KycStatusChip status={status.status} />
        </Stack>
        {displayKycMessage && status.status === 'PENDING' ? (
          <Alert severity="success" sx={{ mb: 2 }}>
            {t('status.started')}
          </Alert>
        ) : null}
        <Typography role="status">{t(`status.${status.status}`)}</Typography>
        {status.status === 'PENDING' ? (
          <>
            {status.isSandbox ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('status.PENDING_SANDBOX')}
              </Typography>
            ) : null}
            <LinearProgress sx={{ mt: 2 }} aria-label={t('status.chip.PENDING')} />
          </>
        ) : null}
        {reason ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t(`reasons.${reason}`, {
              documentName: [check?.documentFirstName, check?.documentLastName].filter(Boolean).join(' '),
              profileName: [user.firstName, user.lastName].filter(Boolean).join(' '),
            })}
          </Alert>
        ) : null}
        {check ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t('status.checkedOn', { date: formatDateTime(check.createdAt) })}
            {check.completedAt ? ` · ${t('status.completedOn', { date: formatDateTime(check.completedAt) })}` : ''}
          </Typography>
        ) : null}
        {status.status === 'VERIFIED' ? (
          <Box sx={{ mt: 3 }}>
            <Button variant="contained" component={RouterLink} to={target.to} endIcon={<ArrowForwardIcon />}>
              {t(target.labelKey)}
            </Button>
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

function VerifyCard({ status, user }: { status: TKycStatusResponse; user: TUser }) {
  const { t } = useTranslation('kyc');
  const isMissingNames = !user.firstName || !user.lastName;
  return (
    <Card component="section" aria-labelledby="kyc-verify-title">
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography id="kyc-verify-title" variant="h3" component="h2">
            {status.status === 'FAILED' ? t('verify.retryTitle') : t('verify.title')}
          </Typography>
          {status.isSandbox && status.isAvailable ? <SandboxChip /> : null}
        </Stack>
        {!status.isAvailable ? (
          <Alert severity="info">{t('verify.unavailable')}</Alert>
        ) : status.isSandbox ? (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
              {t('verify.sandboxIntro')}
            </Typography>
            <SandboxVerificationForm user={user} isDisabled={isMissingNames} />
          </>
        ) : (
          <OnfidoVerification isDisabled={isMissingNames} />
        )}
      </CardContent>
    </Card>
  );
}

function WhyCard() {
  const { t } = useTranslation('kyc');
  return (
    <Card component="section" aria-labelledby="kyc-why-title">
      <CardContent>
        <Typography id="kyc-why-title" variant="h3" component="h2" gutterBottom>
          {t('why.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('why.intro')}
        </Typography>
        <Box component="ul" sx={{ pl: 2.5, my: 1.5, '& li': { mb: 0.5 } }}>
          <Typography component="li" variant="body2">
            {t('why.mainnetNetworks')}
          </Typography>
          <Typography component="li" variant="body2">
            {t('why.mainnetApplications')}
          </Typography>
          <Typography component="li" variant="body2">
            {t('why.mainnetTokens')}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('why.duration')}
        </Typography>
      </CardContent>
    </Card>
  );
}
