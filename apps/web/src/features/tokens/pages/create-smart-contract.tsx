import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import type { TTokenLocation, TTokenQuota } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { FlowActions, FlowSteps } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { Page } from '../../../components/page.tsx';
import { combineQueries, QueryState } from '../../../components/query-state.tsx';
import { WalletProvider } from '../../../lib/wallet/index.ts';
import { useLocations } from '../api/get-locations.ts';
import { useTokens } from '../api/get-tokens.ts';
import { CreateDetailsStep } from '../components/create-details-step.tsx';
import { CreateIntroStep } from '../components/create-intro-step.tsx';
import { DeploymentPanel } from '../components/deployment-panel.tsx';
import { SummaryStep } from '../components/summary-step.tsx';
import { TierStep } from '../components/tier-step.tsx';
import { useCreateTokenFlow } from '../hooks/use-create-token-flow.ts';

/** /{product}-flows/token-flow/deploy/create-new-smart-contract: the token deployment stepper of spec §2.4. */
export function CreateSmartContractPage() {
  const { t } = useTranslation('quantPortfolio');
  const locations = useLocations();
  const tokens = useTokens({ page: 0, size: 5 });
  return (
    <Page title={t('stepper.title')} description={t('stepper.description')}>
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <QueryState
            query={combineQueries(locations, tokens)}
            loading={
              <Box aria-busy="true" aria-label={t('stepper.title')}>
                <Skeleton variant="rounded" height={56} sx={{ mb: 3 }} />
                <Skeleton variant="rounded" height={220} />
              </Box>
            }
            retryLabel={t('actions.retry')}
          >
            {([loadedLocations, page]) => (
              <WalletProvider
                networks={loadedLocations.map((l) => ({
                  chainId: l.chainId,
                  name: l.network,
                  explorerUrl: l.explorerUrl,
                }))}
              >
                <CreateFlow locations={loadedLocations} quota={page.quota} credits={page.credits} />
              </WalletProvider>
            )}
          </QueryState>
        </CardContent>
      </Card>
    </Page>
  );
}

function CreateFlow({
  locations,
  quota,
  credits,
}: {
  locations: TTokenLocation[];
  quota: TTokenQuota;
  credits: number;
}) {
  const { t } = useTranslation('quantPortfolio');
  const flow = useCreateTokenFlow({ locations, quota });
  const { step, setStep, tier, parsed, deployment } = flow;
  const labels = t('stepper.steps', { returnObjects: true }) as string[];

  return (
    <Box>
      <LeaveGuard
        when={flow.isLeaveGuarded}
        texts={{
          title: t('stepper.leave.title'),
          body: flow.isDeploying ? t('stepper.leave.pendingBody') : t('stepper.leave.body'),
          stay: t('actions.stay'),
          leave: t('actions.leave'),
        }}
      />
      <FlowSteps labels={labels} active={step} />
      {step === 0 ? (
        <CreateIntroStep quotaLeft={flow.quotaLeft} credits={credits} onContinue={() => setStep(1)} />
      ) : null}
      {step === 1 ? (
        <>
          <TierStep
            locations={locations}
            networkId={flow.location.networkId}
            tokenType={flow.tokenType}
            tierId={tier?.id ?? null}
            error={flow.tierError}
            onNetwork={flow.chooseNetwork}
            onTokenType={flow.chooseTokenType}
            onTier={flow.chooseTier}
          />
          <FlowActions
            onBack={() => setStep(0)}
            continueLabel={t('actions.continue')}
            onContinue={flow.handleTierContinue}
          />
        </>
      ) : null}
      {step === 2 && tier ? (
        <CreateDetailsStep
          form={flow.form}
          fields={flow.fields}
          tier={tier}
          deploymentType={flow.deploymentType}
          onDeploymentType={flow.setDeploymentType}
          onUseWallet={(field) => void flow.handleUseWallet(field)}
          walletError={flow.walletError}
          formError={flow.formError}
          isVerifying={flow.isVerifying}
          onSubmit={flow.handleDetailsContinue}
          onBack={() => setStep(1)}
        />
      ) : null}
      {step === 3 && tier && parsed ? (
        <>
          <SummaryStep
            location={flow.location}
            tier={tier}
            form={parsed}
            fields={flow.fields}
            deploymentType={flow.deploymentType}
            credits={credits}
            onEdit={(target) => setStep(target)}
          />
          <FlowActions
            onBack={() => setStep(2)}
            continueLabel={t('stepper.summary.deploy')}
            onContinue={() => {
              deployment.reset();
              setStep(4);
            }}
          />
        </>
      ) : null}
      {step === 4 && tier && parsed ? (
        <>
          <DeploymentPanel
            state={deployment.state}
            tokenName={parsed.name}
            location={flow.location}
            deploymentType={flow.deploymentType}
            onStart={() => void deployment.start()}
            onRetry={() => void deployment.start()}
            headingRef={flow.headingRef}
          />
          {deployment.state.kind === 'ready' ? <FlowActions onBack={() => setStep(3)} /> : null}
        </>
      ) : null}
    </Box>
  );
}
