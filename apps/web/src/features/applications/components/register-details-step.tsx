import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { APPLICATION_TYPES } from '@connect/shared';
import { useId, type FormEvent } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FlowActions } from '../../../components/flow/flow-stepper.tsx';
import type { RegistrationDetails } from '../hooks/use-register-application.ts';
import { NameAndCallbackFields } from './name-and-callback-fields.tsx';

/**
 * Registration step 2: name, callback URL and where the application runs (fixed once created).
 * An unverified user choosing mainnet is told identity verification comes first.
 */
export function RegisterDetailsStep({
  form,
  applicationType,
  isChecking,
  isVerified,
  onSubmit,
  onBack,
  onTypeChange,
}: {
  form: UseFormReturn<RegistrationDetails>;
  applicationType: RegistrationDetails['applicationType'];
  isChecking: boolean;
  isVerified: boolean;
  onSubmit: (event: FormEvent) => Promise<void>;
  onBack: () => void;
  onTypeChange: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  const typeLabelId = useId();
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Typography variant="h2" sx={{ fontSize: 22, mb: 2 }}>
        {t('stepper.details.heading')}
      </Typography>
      <fieldset disabled={isChecking} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
          <NameAndCallbackFields control={form.control} callbackPlaceholder="https://" />
          <Controller
            control={form.control}
            name="applicationType"
            render={({ field, fieldState }) => (
              <FormControl error={Boolean(fieldState.error)} required>
                <FormLabel id={typeLabelId}>{t('fields.applicationType')}</FormLabel>
                <RadioGroup
                  aria-labelledby={typeLabelId}
                  value={field.value}
                  onChange={(event) => {
                    field.onChange(event.target.value);
                    onTypeChange();
                  }}
                >
                  {APPLICATION_TYPES.map((type) => (
                    <FormControlLabel
                      key={type}
                      value={type}
                      control={<Radio />}
                      label={
                        <span>
                          {t(`environment.${type}`)}
                          <Typography component="span" variant="body2" color="text.secondary">
                            {' — '}
                            {t(`fields.${type}Help`)}
                          </Typography>
                        </span>
                      }
                    />
                  ))}
                </RadioGroup>
                <FormHelperText>{fieldState.error?.message ?? t('fields.applicationTypeFixed')}</FormHelperText>
              </FormControl>
            )}
          />
          {applicationType === 'mainnet' && !isVerified ? (
            <Alert severity="info">{t('stepper.details.kycNeeded')}</Alert>
          ) : null}
        </Stack>
      </fieldset>
      <FlowActions onBack={onBack} continueLabel={t('actions.continue')} continueType="submit" isPending={isChecking} />
    </form>
  );
}
