import CancelOutlinedIcon from '@mui/icons-material/CancelOutlined';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import RocketLaunchOutlinedIcon from '@mui/icons-material/RocketLaunchOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { explorerLink, type TDeploymentType, type TToken, type TTokenLocation } from '@connect/shared';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { openHelpInstead } from '../../../lib/outside-tools/index.ts';
import { formatNumber } from '../../../lib/format.ts';
import type { DeployState } from '../hooks/use-deployment.ts';
import { coinDetailsHref, tokenPaths } from '../token-paths.ts';
import { Identifier } from './identifier.tsx';

function Panel({
  icon,
  title,
  titleColor,
  headingRef,
  children,
}: {
  icon: ReactNode;
  title: string;
  titleColor?: string;
  headingRef?: Ref<HTMLHeadingElement> | undefined;
  children: ReactNode;
}) {
  return (
    <Box role="region" aria-label={title} sx={{ textAlign: 'center', py: 3, px: { xs: 1, sm: 4 } }}>
      <Box aria-hidden sx={{ '& svg': { fontSize: 56 } }}>
        {icon}
      </Box>
      <Typography
        ref={headingRef}
        tabIndex={-1}
        variant="h2"
        sx={{ fontSize: 22, mt: 1, outline: 'none', ...(titleColor ? { color: titleColor } : {}) }}
      >
        {title}
      </Typography>
      <Box sx={{ mt: 1.5, maxWidth: 640, mx: 'auto' }}>{children}</Box>
    </Box>
  );
}

function OnChainFacts({ token, location }: { token: TToken; location: TTokenLocation }) {
  const { t } = useTranslation('quantPortfolio');
  // The contract (an address on the explorer) and the deployment's transaction, each when known.
  const facts = [
    {
      label: t('stepper.deploy.contract'),
      value: token.smartContractAddress,
      what: t('details.contractAddress'),
      kind: 'address',
    },
    {
      label: t('stepper.deploy.transaction'),
      value: token.transactionId,
      what: t('details.transactionId'),
      kind: 'tx',
    },
  ] as const;
  return (
    <Stack spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
      {facts.map(({ label, value, what, kind }) =>
        value ? (
          <Stack key={kind} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Identifier
              value={value}
              what={what.toLowerCase()}
              explorerUrl={explorerLink(location.explorerUrl, kind, value)}
            />
          </Stack>
        ) : null,
      )}
    </Stack>
  );
}

/** After a cancelled or failed deployment: back to Token Flow, or try again. */
function RetryActions({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <Stack direction="row" spacing={1.5} sx={{ mt: 3, justifyContent: 'center' }}>
      <Button component={RouterLink} to={tokenPaths.tokenFlow()} color="inherit">
        {t('actions.backToTokenFlow')}
      </Button>
      <Button variant="contained" onClick={onRetry}>
        {t('stepper.deploy.tryAgain')}
      </Button>
    </Stack>
  );
}

/**
 * Step 5 of the creation stepper: one panel per deployment state (spec §2.5) — ready, pending
 * ("do not leave the page" with what is happening now), successful, successful without wallet,
 * cancelled ("You've canceled your deployment."), error ("Deployment failed, please try again
 * later") with the failed-deployment notice.
 */
export function DeploymentPanel({
  state,
  tokenName,
  location,
  deploymentType,
  onStart,
  onRetry,
  headingRef,
}: {
  state: DeployState;
  tokenName: string;
  location: TTokenLocation;
  deploymentType: TDeploymentType;
  onStart: () => void;
  onRetry: () => void;
  /** The shown panel's heading, focused when the panel changes (useStepFocus). */
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation('quantPortfolio');
  const network = location.network;
  const walletMessage = (code: string | undefined) =>
    code ? t(`wallet.errors.${code}`, { network, chainId: location.chainId }) : null;

  switch (state.kind) {
    case 'ready':
      return (
        <Panel
          headingRef={headingRef}
          icon={<RocketLaunchOutlinedIcon color="primary" />}
          title={t('stepper.deploy.readyTitle', { name: tokenName })}
        >
          <Typography color="text.secondary">
            {deploymentType === 'META_MASK'
              ? t('stepper.deploy.readyWallet', { network, chainId: location.chainId })
              : t('stepper.deploy.readyQuant', { name: tokenName, network })}
          </Typography>
          {state.walletError ? (
            <Alert severity="error" sx={{ mt: 2, textAlign: 'left' }}>
              {walletMessage(state.walletError)}
            </Alert>
          ) : null}
          <Button variant="contained" size="large" sx={{ mt: 3 }} onClick={onStart}>
            {deploymentType === 'META_MASK' ? t('stepper.deploy.startWallet') : t('stepper.deploy.start')}
          </Button>
        </Panel>
      );
    case 'pending': {
      const phase = t(`stepper.deploy.phase.${state.phase}`, { network });
      return (
        <Panel
          headingRef={headingRef}
          icon={<RocketLaunchOutlinedIcon color="primary" />}
          title={t('stepper.deploy.pendingTitle', { name: tokenName })}
        >
          {deploymentType === 'QUANT' && state.phase === 'platform' ? (
            <Alert severity="info" sx={{ textAlign: 'left' }}>
              {t('stepper.deploy.canLeave')}
            </Alert>
          ) : (
            <Alert severity="warning" sx={{ textAlign: 'left' }}>
              {t('stepper.deploy.doNotLeave')}
            </Alert>
          )}
          <Box sx={{ mt: 3 }}>
            <LinearProgress aria-label={phase} />
            <Typography role="status" sx={{ mt: 1.5, fontWeight: 600 }}>
              {phase}
            </Typography>
          </Box>
          {state.txHash ? (
            <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center', justifyContent: 'center' }}>
              <Typography variant="body2" color="text.secondary">
                {t('stepper.deploy.transaction')}
              </Typography>
              <Identifier
                value={state.txHash}
                what={t('details.transactionId').toLowerCase()}
                explorerUrl={explorerLink(location.explorerUrl, 'tx', state.txHash)}
              />
            </Stack>
          ) : null}
        </Panel>
      );
    }
    case 'successful':
    case 'successfulWithoutWallet':
      return (
        <Panel
          headingRef={headingRef}
          icon={<CheckCircleOutlineIcon color="success" />}
          title={t(
            state.kind === 'successful' ? 'stepper.deploy.successTitle' : 'stepper.deploy.successNoWalletTitle',
            {
              name: state.token.tokenName,
            },
          )}
        >
          <Typography color="text.secondary">
            {t(state.kind === 'successful' ? 'stepper.deploy.successBody' : 'stepper.deploy.successNoWalletBody', {
              network,
            })}
          </Typography>
          <OnChainFacts token={state.token} location={location} />
          {state.token.creditsCharged > 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('stepper.deploy.credits', { credits: formatNumber(state.token.creditsCharged) })}
            </Typography>
          ) : null}
          <Stack direction="row" spacing={1.5} sx={{ mt: 3, justifyContent: 'center' }}>
            <Button component={RouterLink} to={tokenPaths.tokenFlow()} color="inherit">
              {t('actions.backToTokenFlow')}
            </Button>
            <Button component={RouterLink} to={coinDetailsHref(state.token)} variant="contained">
              {t('stepper.deploy.viewToken')}
            </Button>
          </Stack>
        </Panel>
      );
    case 'cancelled':
      return (
        <Panel
          headingRef={headingRef}
          icon={<CancelOutlinedIcon color="action" />}
          title={t('stepper.deploy.cancelledTitle')}
        >
          <Alert severity="warning" sx={{ textAlign: 'left' }}>
            {walletMessage(state.walletError)}
          </Alert>
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {t('stepper.deploy.cancelledBody')}
          </Typography>
          <RetryActions onRetry={onRetry} />
        </Panel>
      );
    case 'error':
      return (
        <Panel
          headingRef={headingRef}
          icon={<ErrorOutlineIcon color="error" />}
          title={t('stepper.deploy.errorTitle')}
          titleColor="error.main"
        >
          {state.walletError ? (
            <Alert severity="error" sx={{ textAlign: 'left' }}>
              {walletMessage(state.walletError)}
              {state.walletDetail ? ` (${state.walletDetail})` : ''}
            </Alert>
          ) : state.message ? (
            <Alert severity="error" sx={{ textAlign: 'left' }}>
              {state.message}
            </Alert>
          ) : null}
          {state.token?.status === 'FAILED' ? (
            <Alert
              severity="error"
              variant="outlined"
              sx={{ mt: 2, textAlign: 'left' }}
              action={
                <Button
                  component={RouterLink}
                  to={tokenPaths.support()}
                  onClick={openHelpInstead}
                  color="inherit"
                  size="small"
                >
                  {t('stepper.deploy.contactSupport')}
                </Button>
              }
            >
              {t('stepper.deploy.failedNotice')}
              {state.token.failureReason ? ` (${state.token.failureReason})` : ''}
            </Alert>
          ) : null}
          <RetryActions onRetry={onRetry} />
        </Panel>
      );
  }
}
