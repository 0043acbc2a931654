import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import {
  EMPTY_TOKEN_FORM,
  TOKEN_FORM_FIELDS,
  tokenFormFields,
  tokenFormSchema,
  type TDeploymentType,
  type TTierCard,
  type TTokenForm,
  type TTokenFormField,
  type TTokenFormInput,
  type TTokenLocation,
  type TTokenQuota,
  type TTokenType,
} from '@connect/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { invalidParamsOf, problemMessage, problemRedirectOf, type ProblemRedirect } from '../../../lib/problems.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { formatNumber } from '../../../lib/format.ts';
import { classifyWalletError, connectWallet, useWallet, WalletProvider } from '../../../lib/wallet/index.ts';
import { useLocations } from '../api/get-locations.ts';
import { useTokens } from '../api/get-tokens.ts';
import { useVerifyToken } from '../api/verify-token.ts';
import { DeploymentPanel } from '../components/deployment-panel.tsx';
import { FlowActions, FlowSteps, useStepFocus } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { SummaryStep } from '../components/summary-step.tsx';
import { TierStep } from '../components/tier-step.tsx';
import { TokenDetailsForm } from '../components/token-details-form.tsx';
import { redirectPath } from '../guard.ts';
import { useDeployment } from '../hooks/use-deployment.ts';
import { tokenPaths } from '../token-paths.ts';

/** /{product}-flows/token-flow/deploy/create-new-smart-contract: the token deployment stepper of spec §2.4. */
export function CreateSmartContractPage() {
  const { t } = useTranslation('quantPortfolio');
  const locations = useLocations();
  const tokens = useTokens({ page: 0, size: 5 });
  const retry = () => {
    void locations.refetch();
    void tokens.refetch();
  };
  const error = locations.error ?? tokens.error;
  return (
    <Page title={t('stepper.title')} description={t('stepper.description')}>
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          {locations.data && tokens.data ? (
            <WalletProvider
              networks={locations.data.map((l) => ({
                chainId: l.chainId,
                name: l.network,
                explorerUrl: l.explorerUrl,
              }))}
            >
              <CreateFlow locations={locations.data} quota={tokens.data.quota} credits={tokens.data.credits} />
            </WalletProvider>
          ) : error ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={retry}>
                  {t('actions.retry')}
                </Button>
              }
            >
              {error.message}
            </Alert>
          ) : (
            <Box aria-busy="true" aria-label={t('stepper.title')}>
              <Skeleton variant="rounded" height={56} sx={{ mb: 3 }} />
              <Skeleton variant="rounded" height={220} />
            </Box>
          )}
        </CardContent>
      </Card>
    </Page>
  );
}

const isFormField = (name: string): name is TTokenFormField => (TOKEN_FORM_FIELDS as readonly string[]).includes(name);

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
  const navigate = useNavigate();
  const user = useCurrentUser();
  const wallet = useWallet();
  const [step, setStep] = useState(0);
  const [networkId, setNetworkId] = useState(locations[0]!.networkId);
  const [tokenType, setTokenType] = useState<TTokenType>('QRC20');
  const [tier, setTier] = useState<TTierCard | null>(null);
  const [tierError, setTierError] = useState<string | null>(null);
  const [deploymentType, setDeploymentType] = useState<TDeploymentType>('QUANT');
  const [parsed, setParsed] = useState<TTokenForm | null>(null);
  const [walletError, setWalletError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // A redirect the page decides on (guards): the leave dialog must not stop it.
  const [redirectTo, setRedirectTo] = useState<string | null>(null);
  const verify = useVerifyToken();
  const location = locations.find((l) => l.networkId === networkId) ?? locations[0]!;
  const fields = useMemo(() => (tier ? tokenFormFields(tier.tokenType, tier.type) : []), [tier]);

  // The form's rules follow the chosen tier; the resolver reads the current one.
  const schemaFor = useRef(tier);
  schemaFor.current = tier;
  const resolver: Resolver<TTokenFormInput, unknown, TTokenForm> = (values, context, options) => {
    const current = schemaFor.current;
    if (!current) return { values: values as TTokenForm, errors: {} };
    return zodResolver(tokenFormSchema(current.tokenType, current.type))(values, context, options);
  };
  const form = useForm<TTokenFormInput, unknown, TTokenForm>({
    defaultValues: EMPTY_TOKEN_FORM,
    mode: 'onTouched',
    resolver,
  });

  const handleGuard = (redirect: ProblemRedirect) => setRedirectTo(redirectPath(redirect));
  const deployment = useDeployment({
    request: {
      networkId: location.networkId,
      tierId: tier?.id ?? '',
      tokenType: tier?.tokenType ?? tokenType,
      deploymentType,
      ...(parsed ?? {}),
    },
    location,
    walletConfig: wallet.config,
    onGuard: handleGuard,
  });

  useEffect(() => {
    if (redirectTo) void navigate(redirectTo);
  }, [navigate, redirectTo]);

  const labels = t('stepper.steps', { returnObjects: true }) as string[];
  const deployKind = deployment.state.kind;
  const isDeploying = deployKind === 'pending';
  const isFinished = deployKind === 'successful' || deployKind === 'successfulWithoutWallet';
  const isDirty = step > 0 || form.formState.isDirty;
  const quotaLeft = quota.allowed === null ? null : quota.allowed - quota.deployed;
  // Each step, and each panel of the deployment step (ready, pending, success, failure), starts at
  // the top with the stepper in view: a deployment ends well below the fold on a small screen.
  const headingRef = useStepFocus(step === 4 ? `deployment:${deployKind}` : step);

  const chooseNetwork = (id: string) => {
    setNetworkId(id);
    setTier(null);
  };
  const chooseTokenType = (type: TTokenType) => {
    setTokenType(type);
    setTier(null);
  };
  const chooseTier = (card: TTierCard) => {
    setTier(card);
    setTierError(null);
    if (card.bytecodeCredits === null) setDeploymentType('QUANT');
  };

  const handleTierContinue = () => {
    if (!tier) {
      setTierError(t('stepper.tier.chooseTier'));
      return;
    }
    // Spec §5: mainnet use of tokens requires completed identity verification.
    if (location.networkType === 'mainnet' && user.data?.onfidoApplicantStatus !== 'VERIFIED') {
      setRedirectTo(tokenPaths.kyc());
      return;
    }
    setStep(2);
  };

  const handleDetailsContinue = form.handleSubmit(async (values) => {
    if (!tier) return;
    setFormError(null);
    try {
      const result = await verify.mutateAsync({
        networkId: location.networkId,
        tierId: tier.id,
        tokenType: tier.tokenType,
        deploymentType,
        ...values,
      });
      if (!result.valid) {
        applyServerErrors(result.invalidParams);
        return;
      }
      setParsed(values);
      setStep(3);
    } catch (error) {
      const sendsOn = problemRedirectOf(error);
      if (sendsOn) {
        handleGuard(sendsOn);
        return;
      }
      const invalid = invalidParamsOf(error);
      if (invalid.length) {
        applyServerErrors(invalid);
        return;
      }
      setFormError(problemMessage(error));
    }
  });

  function applyServerErrors(invalid: { name: string; reason: string }[]) {
    const other: string[] = [];
    for (const { name, reason } of invalid) {
      if (isFormField(name)) form.setError(name, { message: reason }, { shouldFocus: true });
      else other.push(reason);
    }
    if (other.length) setFormError(other.join(' '));
  }

  const handleUseWallet = async (field: TTokenFormField) => {
    try {
      const address = await connectWallet(wallet.config);
      form.setValue(field, address, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
      setWalletError(null);
    } catch (error) {
      setWalletError(
        t(`wallet.errors.${classifyWalletError(error)}`, { network: location.network, chainId: location.chainId }),
      );
    }
  };

  return (
    <Box>
      <LeaveGuard
        when={!redirectTo && !isFinished && (isDirty || isDeploying)}
        texts={{
          title: t('stepper.leave.title'),
          body: isDeploying ? t('stepper.leave.pendingBody') : t('stepper.leave.body'),
          stay: t('actions.stay'),
          leave: t('actions.leave'),
        }}
      />
      <FlowSteps labels={labels} active={step} />
      {step === 0 ? (
        <>
          <Typography variant="h2" sx={{ fontSize: 20 }}>
            {t('stepper.intro.heading')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('stepper.intro.body')}
          </Typography>
          <List sx={{ listStyle: 'disc', pl: 3 }}>
            {(t('stepper.intro.points', { returnObjects: true }) as string[]).map((point) => (
              <ListItem key={point} sx={{ display: 'list-item', py: 0.5 }}>
                <ListItemText primary={point} />
              </ListItem>
            ))}
          </List>
          <Alert severity="info" sx={{ mt: 1 }}>
            {quotaLeft === null ? t('stepper.intro.quotaUnlimited') : t('stepper.intro.quota', { count: quotaLeft })}{' '}
            {t('stepper.intro.credits', { credits: formatNumber(credits) })}
          </Alert>
          <FlowActions continueLabel={t('actions.continue')} onContinue={() => setStep(1)} />
        </>
      ) : null}
      {step === 1 ? (
        <>
          <TierStep
            locations={locations}
            networkId={location.networkId}
            tokenType={tokenType}
            tierId={tier?.id ?? null}
            error={tierError}
            onNetwork={chooseNetwork}
            onTokenType={chooseTokenType}
            onTier={chooseTier}
          />
          <FlowActions
            onBack={() => setStep(0)}
            continueLabel={t('actions.continue')}
            onContinue={handleTierContinue}
          />
        </>
      ) : null}
      {step === 2 && tier ? (
        <Box component="form" noValidate onSubmit={(event) => void handleDetailsContinue(event)}>
          <fieldset disabled={verify.isPending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <TokenDetailsForm
              control={form.control}
              fields={fields}
              tier={tier}
              deploymentType={deploymentType}
              onDeploymentType={setDeploymentType}
              onUseWallet={(field) => void handleUseWallet(field)}
              walletError={walletError}
            />
          </fieldset>
          {formError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {formError}
            </Alert>
          ) : null}
          <FlowActions
            onBack={() => setStep(1)}
            continueLabel={t('actions.continue')}
            continueType="submit"
            isPending={verify.isPending}
          />
        </Box>
      ) : null}
      {step === 3 && tier && parsed ? (
        <>
          <SummaryStep
            location={location}
            tier={tier}
            form={parsed}
            fields={fields}
            deploymentType={deploymentType}
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
            location={location}
            deploymentType={deploymentType}
            onStart={() => void deployment.start()}
            onRetry={() => void deployment.start()}
            headingRef={headingRef}
          />
          {deployKind === 'ready' ? <FlowActions onBack={() => setStep(3)} /> : null}
        </>
      ) : null}
    </Box>
  );
}
