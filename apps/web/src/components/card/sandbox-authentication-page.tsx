import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TCardIntentStatus } from '@connect/shared';
import { redirectTo } from '../../lib/payment/card-redirect.ts';
import { cardReturnUrl, intentKindOf, isSameOrigin } from '../../lib/payment/card-return.ts';
import { authenticateSandboxIntent, getSandboxIntent, type SandboxIntent } from '../../lib/payment/card-sandbox.ts';
import { formatGbp } from '../../lib/plans/money.ts';
import { problemMessage } from '../../lib/problems.ts';
import { Page } from '../page.tsx';
import { QueryState } from '../query-state.tsx';
import { CardSandboxChip } from './card-sandbox-chip.tsx';

/** Stripe's redirect_status for an intent's status after authentication. */
const redirectStatusOf = (status: TCardIntentStatus) =>
  status === 'succeeded' || status === 'processing' ? status : 'failed';

type AuthenticationLink = { intentId: string; clientSecret: string; returnUrl: string };

/** The page's query, when complete and returning to this portal. */
function linkOf(search: URLSearchParams): AuthenticationLink | null {
  const intentId = search.get('intent');
  const clientSecret = search.get('client_secret');
  const returnUrl = search.get('return_url');
  if (!intentId || !clientSecret || !returnUrl || !isSameOrigin(returnUrl)) return null;
  return { intentId, clientSecret, returnUrl };
}

/**
 * /card-sandbox/authenticate: the sandbox's stand-in for the bank's authentication (Stripe's test
 * 3D Secure page), where the card sandbox sends a payment whose card asks for it. The customer
 * completes or fails it, and goes back to the portal page the payment started from with the
 * intent and its redirect_status in the query, as Stripe sends them.
 */
export function SandboxAuthenticationPage() {
  const { t } = useTranslation('accountPlan');
  const [searchParams] = useSearchParams();
  const [link] = useState(() => linkOf(searchParams));
  // Titled for what it does: a SetupIntent only saves a card (nothing is paid).
  const isSetup = link ? intentKindOf(link.intentId) === 'SETUP' : false;
  return (
    <Page title={isSetup ? t('card.authenticate.setupTitle') : t('card.authenticate.title')}>
      <Card sx={{ maxWidth: 560, mx: 'auto' }}>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          {link ? <Authentication link={link} /> : <Alert severity="error">{t('card.authenticate.invalidLink')}</Alert>}
        </CardContent>
      </Card>
    </Page>
  );
}

function Authentication({ link }: { link: AuthenticationLink }) {
  const { t } = useTranslation('accountPlan');
  const intent = useQuery({
    queryKey: ['card-sandbox', 'intent', link.intentId],
    queryFn: () => getSandboxIntent(link.intentId, link.clientSecret),
    retry: false,
  });
  return (
    <QueryState
      query={intent}
      loading={
        <Box
          aria-busy="true"
          aria-label={t(
            intentKindOf(link.intentId) === 'SETUP' ? 'card.authenticate.setupLoading' : 'card.authenticate.loading',
          )}
        >
          <Skeleton width="60%" height={40} />
          <Skeleton width="80%" />
          <Skeleton variant="rounded" height={40} sx={{ mt: 3 }} />
        </Box>
      }
    >
      {(loaded) => <AuthenticationChoice link={link} intent={loaded} />}
    </QueryState>
  );
}

function AuthenticationChoice({ link, intent }: { link: AuthenticationLink; intent: SandboxIntent }) {
  const { t } = useTranslation('accountPlan');
  const [isLeaving, setLeaving] = useState(false);
  const leave = (returnUrl: string, status: TCardIntentStatus) => {
    setLeaving(true);
    redirectTo(cardReturnUrl(returnUrl, link, redirectStatusOf(status)));
  };
  const authenticate = useMutation({
    mutationFn: (outcome: 'complete' | 'fail') => authenticateSandboxIntent(link.intentId, link.clientSecret, outcome),
    // The sandbox answers the return URL it was given; only one on this portal is followed.
    onSuccess: (result) =>
      leave(result.returnUrl && isSameOrigin(result.returnUrl) ? result.returnUrl : link.returnUrl, result.status),
  });
  // One answer: a second click before React re-renders the disabled buttons is not sent.
  const isSending = useRef(false);
  const answer = (outcome: 'complete' | 'fail') => {
    if (isSending.current) return;
    isSending.current = true;
    authenticate.mutate(outcome, { onError: () => (isSending.current = false) });
  };
  const isBusy = authenticate.isPending || isLeaving;
  const isWaiting = intent.status === 'requires_action';
  const isSetup = intentKindOf(link.intentId) === 'SETUP';

  return (
    <Stack spacing={2.5}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h3" component="h2">
          {t(isSetup ? 'card.authenticate.setupHeading' : 'card.authenticate.heading')}
        </Typography>
        <CardSandboxChip />
      </Stack>
      <Typography sx={{ fontWeight: 600 }}>{t('card.authenticate.sandboxNote')}</Typography>
      <Typography color="text.secondary">
        {t(isSetup ? 'card.authenticate.setupBody' : 'card.authenticate.body')}
      </Typography>
      <Box component="dl" sx={{ m: 0, p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Typography component="dt" variant="body2" color="text.secondary">
          {t('card.authenticate.amount')}
        </Typography>
        <Typography component="dd" variant="h3" sx={{ m: 0 }} data-testid="authentication-amount">
          {typeof intent.amount === 'number' ? formatGbp(intent.amount) : t('card.authenticate.setup')}
        </Typography>
      </Box>
      {authenticate.isError ? <Alert severity="error">{problemMessage(authenticate.error)}</Alert> : null}
      {isWaiting ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button
            variant="outlined"
            color="error"
            disabled={isBusy}
            loading={authenticate.isPending && authenticate.variables === 'fail'}
            onClick={() => answer('fail')}
          >
            {t('card.authenticate.fail')}
          </Button>
          <Button
            variant="contained"
            disabled={isBusy}
            loading={authenticate.isPending && authenticate.variables === 'complete'}
            onClick={() => answer('complete')}
          >
            {t('card.authenticate.complete')}
          </Button>
        </Stack>
      ) : (
        <>
          <Alert severity="info">{t('card.authenticate.notNeeded')}</Alert>
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button variant="contained" disabled={isLeaving} onClick={() => leave(link.returnUrl, intent.status)}>
              {t('card.authenticate.continue')}
            </Button>
          </Stack>
        </>
      )}
    </Stack>
  );
}
