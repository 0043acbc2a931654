import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { TDeploymentType, TTierCard, TTokenForm, TTokenFormField, TTokenFormInput } from '@connect/shared';
import type { FormEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FlowActions } from '../../../components/flow/flow-stepper.tsx';
import { TokenDetailsForm } from './token-details-form.tsx';

/**
 * Deployment step 3: the token's details for the chosen tier and how to deploy, sent to the server
 * to check before the summary; what the server refuses outside a field shows above the buttons.
 */
export function CreateDetailsStep({
  form,
  fields,
  tier,
  deploymentType,
  onDeploymentType,
  onUseWallet,
  walletError,
  formError,
  isVerifying,
  onSubmit,
  onBack,
}: {
  form: UseFormReturn<TTokenFormInput, unknown, TTokenForm>;
  fields: TTokenFormField[];
  tier: TTierCard;
  deploymentType: TDeploymentType;
  onDeploymentType: (type: TDeploymentType) => void;
  onUseWallet: (field: TTokenFormField) => void;
  walletError: string | null;
  formError: string | null;
  isVerifying: boolean;
  onSubmit: (event: FormEvent) => Promise<void>;
  onBack: () => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <fieldset disabled={isVerifying} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <TokenDetailsForm
          control={form.control}
          fields={fields}
          tier={tier}
          deploymentType={deploymentType}
          onDeploymentType={onDeploymentType}
          onUseWallet={onUseWallet}
          walletError={walletError}
        />
      </fieldset>
      {formError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {formError}
        </Alert>
      ) : null}
      <FlowActions
        onBack={onBack}
        continueLabel={t('actions.continue')}
        continueType="submit"
        isPending={isVerifying}
      />
    </Box>
  );
}
