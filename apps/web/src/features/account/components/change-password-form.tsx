import { zodResolver } from '@hookform/resolvers/zod';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FIELD_MESSAGES, PASSWORD_RULES, ZPassword } from '@connect/shared';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { useChangePassword } from '../api/change-password.ts';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';

type PasswordForm = { oldPassword: string; newPassword: string; confirmPassword: string };

/** Old, new (with the policy's hints ticked off as they are met) and confirmation. */
export function ChangePasswordForm() {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const change = useChangePassword();
  const schema = useMemo(
    () =>
      z
        .object({
          oldPassword: z.string().min(1, { message: FIELD_MESSAGES.required }),
          newPassword: ZPassword,
          confirmPassword: z.string().min(1, { message: FIELD_MESSAGES.required }),
        })
        .refine((values) => values.newPassword === values.confirmPassword, {
          path: ['confirmPassword'],
          message: t('myAccount.password.mismatch'),
        }),
    [t],
  );
  const form = useForm<PasswordForm>({
    resolver: zodResolver(schema),
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });

  const handleSubmit = form.handleSubmit(({ oldPassword, newPassword: password }) =>
    change.mutate(
      { oldPassword, newPassword: password },
      {
        onSuccess: () => {
          form.reset();
          snackbar.show({ type: 'success', title: t('myAccount.password.changed') });
        },
      },
    ),
  );

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-labelledby="change-password-title">
      <Typography id="change-password-title" variant="h4" component="h3" sx={{ mb: 2 }}>
        {t('myAccount.password.title')}
      </Typography>
      <Box component="fieldset" disabled={change.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Stack spacing={2}>
          <FormTextField
            control={form.control}
            name="oldPassword"
            type="password"
            label={t('myAccount.password.old')}
            autoComplete="current-password"
            required
          />
          <FormTextField
            control={form.control}
            name="newPassword"
            type="password"
            label={t('myAccount.password.new')}
            autoComplete="new-password"
            required
            slotProps={{ htmlInput: { 'aria-describedby': 'password-rules' } }}
          />
          <Box
            component="ul"
            id="password-rules"
            sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 0.5 }}
          >
            {PASSWORD_RULES.map((rule) => {
              const isMet = rule.test(newPassword);
              return (
                <Box
                  component="li"
                  key={rule.id}
                  sx={{
                    display: 'flex',
                    alignItems: 'center',
                    gap: 0.75,
                    color: isMet ? 'success.main' : 'text.secondary',
                  }}
                >
                  {isMet ? (
                    <CheckCircleIcon sx={{ fontSize: 16 }} aria-hidden />
                  ) : (
                    <RadioButtonUncheckedIcon sx={{ fontSize: 16 }} aria-hidden />
                  )}
                  <Typography variant="body2" component="span">
                    {t(`myAccount.password.rules.${rule.id}`)}
                    {/* Colour is never the only signal: the state is in the text for screen readers too. */}
                    <Box component="span" sx={visuallyHidden}>
                      {isMet ? ` (${t('myAccount.password.ruleMet')})` : ` (${t('myAccount.password.ruleNotMet')})`}
                    </Box>
                  </Typography>
                </Box>
              );
            })}
          </Box>
          <FormTextField
            control={form.control}
            name="confirmPassword"
            type="password"
            label={t('myAccount.password.confirm')}
            autoComplete="new-password"
            required
          />
        </Stack>
        {change.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {identityErrorMessage(change.error, 'changePassword')}
          </Alert>
        ) : null}
        <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <SubmitButton variant="contained" loading={change.isPending}>
            {t('myAccount.password.submit')}
          </SubmitButton>
        </Stack>
      </Box>
    </Box>
  );
}
