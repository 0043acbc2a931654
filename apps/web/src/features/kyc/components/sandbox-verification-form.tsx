import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { KYC_SANDBOX_OUTCOMES, ZKycSandboxForm, type TKycSandboxForm, type TUser } from '@connect/shared';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { useCreateKycCheck } from '../api/create-kyc-check.ts';

/**
 * The sandbox's stand-in for document capture: the names "printed on the document" (pre-filled
 * from the profile, so the happy path is one click) and the result the check should return.
 */
export function SandboxVerificationForm({ user, isDisabled }: { user: TUser; isDisabled: boolean }) {
  const { t } = useTranslation('kyc');
  const createCheck = useCreateKycCheck();
  const form = useForm<TKycSandboxForm>({
    resolver: zodResolver(ZKycSandboxForm),
    defaultValues: {
      documentFirstName: user.firstName ?? '',
      documentLastName: user.lastName ?? '',
      outcome: 'clear',
    },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit((values) => createCheck.mutate({ sandbox: values }));

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label={t('verify.title')}>
      <Box
        component="fieldset"
        disabled={createCheck.isPending || isDisabled}
        sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}
      >
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              control={form.control}
              name="documentFirstName"
              label={t('verify.documentFirstName')}
              required
              fullWidth
              disabled={isDisabled}
            />
            <FormTextField
              control={form.control}
              name="documentLastName"
              label={t('verify.documentLastName')}
              required
              fullWidth
              disabled={isDisabled}
            />
          </Stack>
          <Controller
            control={form.control}
            name="outcome"
            render={({ field, fieldState }) => (
              <FormControl error={Boolean(fieldState.error)} disabled={isDisabled}>
                <FormLabel id="kyc-outcome-label">{t('verify.outcome')}</FormLabel>
                <RadioGroup
                  aria-labelledby="kyc-outcome-label"
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                >
                  {KYC_SANDBOX_OUTCOMES.map((outcome) => (
                    <FormControlLabel
                      key={outcome}
                      value={outcome}
                      control={<Radio />}
                      label={t(`verify.outcomes.${outcome}`)}
                    />
                  ))}
                </RadioGroup>
                {fieldState.error ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
              </FormControl>
            )}
          />
          {createCheck.isError ? <Alert severity="error">{createCheck.error.message}</Alert> : null}
          <Box>
            <SubmitButton loading={createCheck.isPending} disabled={isDisabled}>
              {t('verify.submit')}
            </SubmitButton>
          </Box>
        </Stack>
      </Box>
    </Box>
  );
}
