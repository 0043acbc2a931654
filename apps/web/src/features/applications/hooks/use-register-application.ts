import { zodResolver } from '@hookform/resolvers/zod';
import {
  APPLICATION_MESSAGES,
  APPLICATION_TYPES,
  ZApplicationName,
  ZCallbackUrl,
  type ApplicationType,
  type TCreateApplicationResponse,
} from '@connect/shared';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { isApplicationNameTaken, problemMessage } from '../../../lib/problems.ts';
import { useCreateApplication } from '../api/create-application.ts';
import { useApplicationNetworks } from '../api/get-application-networks.ts';
import { useApplications } from '../api/get-applications.ts';
import { validateApplicationName } from '../api/validate-application-name.ts';
import { applicationPaths } from '../paths.ts';

/** Step 2's fields: the same rules the server applies (packages/shared). */
const ZDetails = z.object({
  name: ZApplicationName,
  callbackUrl: ZCallbackUrl,
  applicationType: z.enum(APPLICATION_TYPES, { error: APPLICATION_MESSAGES.typeRequired }),
});
export type RegistrationDetails = { name: string; callbackUrl: string; applicationType: ApplicationType | '' };

export const REGISTRATION_STEPS = ['intro', 'details', 'networks', 'success'] as const;

/**
 * The state of the registration stepper (spec §2.4): the step, the details form, the networks
 * chosen, and the answer with the client secret shown once. The name is checked with the server
 * before the networks step; a name taken meanwhile sends the user back to the details, under the name.
 */
export function useRegisterApplication() {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const quotaQuery = useApplications({ page: 0, size: 5 });
  const create = useCreateApplication();
  const [step, setStep] = useState(0);
  const [networkIds, setNetworkIds] = useState<string[]>([]);
  const [networksError, setNetworksError] = useState<string | undefined>();
  const [testnetSigning, setTestnetSigning] = useState(false);
  const [result, setResult] = useState<TCreateApplicationResponse | null>(null);
  const [isChecking, setIsChecking] = useState(false);
  // Set before leaving on purpose (to identity verification, which the user chose by choosing
  // mainnet): the leave dialog stays shut. Every other way out asks first.
  const leavingOnPurpose = useRef(false);

  const form = useForm<RegistrationDetails>({
    resolver: zodResolver(ZDetails) as never,
    defaultValues: { name: '', callbackUrl: '', applicationType: '' },
    mode: 'onTouched',
  });
  const applicationType = form.watch('applicationType');
  const networks = useApplicationNetworks(applicationType || undefined, { enabled: step === 2 && !!applicationType });

  const quota = quotaQuery.data?.quota;
  const isQuotaReached = quota ? quota.total !== null && quota.used >= quota.total : false;
  const isStarted = step > 0 && step < 3 && (form.formState.isDirty || networkIds.length > 0);
  const isVerified = user.data?.onfidoApplicantStatus === 'VERIFIED';

  const handleDetails = form.handleSubmit(async (values) => {
    if (values.applicationType === 'mainnet' && !isVerified) {
      // Spec §5: mainnet applications need completed identity verification.
      leavingOnPurpose.current = true;
      void navigate(applicationPaths.kyc);
      return;
    }
    setIsChecking(true);
    try {
      await validateApplicationName({ name: values.name });
      setStep(2);
    } catch (error) {
      form.setError('name', { message: problemMessage(error) }, { shouldFocus: true });
    } finally {
      setIsChecking(false);
    }
  });

  const handleNetworks = (ids: string[]) => {
    setNetworkIds(ids);
    setNetworksError(ids.length ? undefined : APPLICATION_MESSAGES.networksRequired);
  };

  const handleRegister = () => {
    if (networkIds.length === 0) {
      setNetworksError(APPLICATION_MESSAGES.networksRequired);
      return;
    }
    const values = form.getValues();
    create.mutate(
      {
        name: values.name,
        callbackUrl: values.callbackUrl,
        applicationType: values.applicationType as ApplicationType,
        networkIds,
        testnetSigning: values.applicationType === 'testnet' && testnetSigning,
      },
      {
        onSuccess: (created) => {
          setResult(created);
          setStep(3);
        },
        onError: (error) => {
          // A name taken meanwhile goes back to the details step, under the name.
          if (isApplicationNameTaken(error)) {
            form.setError('name', { message: problemMessage(error) });
            setStep(1);
          }
        },
      },
    );
  };

  return {
    step,
    setStep,
    form,
    applicationType,
    isChecking,
    isVerified,
    quota,
    isQuotaPending: quotaQuery.isPending,
    isQuotaReached,
    isStarted,
    leavingOnPurpose,
    networks,
    networkIds,
    networksError,
    testnetSigning,
    setTestnetSigning,
    create,
    result,
    // Another type offers other networks: the choice starts again.
    handleTypeChange: () => setNetworkIds([]),
    handleDetails,
    handleNetworks,
    handleRegister,
  };
}

export type RegisterApplicationState = ReturnType<typeof useRegisterApplication>;
