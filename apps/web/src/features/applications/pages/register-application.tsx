import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { FlowSteps } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { Page } from '../../../components/page.tsx';
import { RegisterDetailsStep } from '../components/register-details-step.tsx';
import { RegisterIntroStep } from '../components/register-intro-step.tsx';
import { RegisterNetworksStep } from '../components/register-networks-step.tsx';
import { RegisterSuccessStep } from '../components/register-success-step.tsx';
import { REGISTRATION_STEPS, useRegisterApplication } from '../hooks/use-register-application.ts';

/** The registration stepper of spec §2.4: intro, application details, select networks, success. */
export function RegisterApplicationPage() {
  const { t } = useTranslation('applicationManager');
  const flow = useRegisterApplication();
  const { step, setStep } = flow;
  const labels = REGISTRATION_STEPS.map((key) => t(`stepper.steps.${key}`));

  return (
    <Page title={t('stepper.title')}>
      <LeaveGuard
        when={flow.isStarted}
        bypass={flow.leavingOnPurpose}
        texts={{ title: t('leave.title'), body: t('leave.body'), stay: t('actions.stay'), leave: t('actions.leave') }}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 4 } }}>
        <FlowSteps labels={labels} active={step} />
        {step === 0 ? (
          <RegisterIntroStep
            quota={flow.quota}
            isQuotaPending={flow.isQuotaPending}
            isQuotaReached={flow.isQuotaReached}
            onStart={() => setStep(1)}
          />
        ) : null}
        {step === 1 ? (
          <RegisterDetailsStep
            form={flow.form}
            applicationType={flow.applicationType}
            isChecking={flow.isChecking}
            isVerified={flow.isVerified}
            onSubmit={flow.handleDetails}
            onBack={() => setStep(0)}
            onTypeChange={flow.handleTypeChange}
          />
        ) : null}
        {step === 2 ? (
          <RegisterNetworksStep
            applicationType={flow.applicationType}
            networks={flow.networks}
            networkIds={flow.networkIds}
            networksError={flow.networksError}
            testnetSigning={flow.testnetSigning}
            create={flow.create}
            onNetworks={flow.handleNetworks}
            onTestnetSigning={flow.setTestnetSigning}
            onBack={() => setStep(1)}
            onRegister={flow.handleRegister}
          />
        ) : null}
        {step === 3 && flow.result ? <RegisterSuccessStep result={flow.result} /> : null}
      </Paper>
    </Page>
  );
}
