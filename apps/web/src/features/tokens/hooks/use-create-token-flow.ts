import { zodResolver } from '@hookform/resolvers/zod';
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
import { useStepFocus } from '../../../components/flow/flow-stepper.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { invalidParamsOf, problemMessage, problemRedirectOf, type ProblemRedirect } from '../../../lib/problems.ts';
import { classifyWalletError, connectWallet, useWallet } from '../../../lib/wallet/index.ts';
import { useVerifyToken } from '../api/verify-token.ts';
import { redirectPath } from '../guard.ts';
import { tokenPaths } from '../token-paths.ts';
import { useDeployment } from './use-deployment.ts';

const isFormField = (name: string): name is TTokenFormField => (TOKEN_FORM_FIELDS as readonly string[]).includes(name);

/**
 * The state of the token deployment stepper (spec §2.4): intro, network and tier, token details
 * (checked by the server before the summary), summary, deployment. A refusal that sends the user
 * elsewhere (no networks, no quota, a mainnet without a verified identity) navigates there without
 * the leave dialog.
 */
export function useCreateTokenFlow({ locations, quota }: { locations: TTokenLocation[]; quota: TTokenQuota }) {
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
    chooseWallet: wallet.choose,
    onGuard: handleGuard,
  });

  useEffect(() => {
    if (redirectTo) void navigate(redirectTo);
  }, [navigate, redirectTo]);

  const deployKind = deployment.state.kind;
  const isDeploying = deployKind === 'pending';
  const isFinished = deployKind === 'successful' || deployKind === 'successfulWithoutWallet';
  const isDirty = step > 0 || form.formState.isDirty;
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

  function applyServerErrors(invalid: { name: string; reason: string }[]) {
    const other: string[] = [];
    for (const { name, reason } of invalid) {
      if (isFormField(name)) form.setError(name, { message: reason }, { shouldFocus: true });
      else other.push(reason);
    }
    if (other.length) setFormError(other.join(' '));
  }

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

  const handleUseWallet = async (field: TTokenFormField) => {
    try {
      const address = await connectWallet(wallet.config, { choose: wallet.choose });
      form.setValue(field, address, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
      setWalletError(null);
    } catch (error) {
      const code = classifyWalletError(error);
      // A closed wallet picker is no failure: nothing changes.
      setWalletError(
        code === 'CANCELLED'
          ? null
          : t(`wallet.errors.${code}`, { network: location.network, chainId: location.chainId }),
      );
    }
  };

  return {
    step,
    setStep,
    location,
    tokenType,
    tier,
    tierError,
    fields,
    form,
    deploymentType,
    setDeploymentType,
    parsed,
    walletError,
    formError,
    isVerifying: verify.isPending,
    deployment,
    headingRef,
    quotaLeft: quota.allowed === null ? null : quota.allowed - quota.deployed,
    // The leave dialog: while something is filled in or deploying, unless the page sends the user on.
    isLeaveGuarded: !redirectTo && !isFinished && (isDirty || isDeploying),
    isDeploying,
    chooseNetwork,
    chooseTokenType,
    chooseTier,
    handleTierContinue,
    handleDetailsContinue,
    handleUseWallet,
  };
}
