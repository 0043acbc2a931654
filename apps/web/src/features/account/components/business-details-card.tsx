import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ZCompanyDetailsRequest, type TCompanyDetailsRequest, type TUser } from '@connect/shared';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { useUpdateCompanyDetails } from '../api/update-company-details.ts';
import { AccountSection } from './account-section.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { OrganisationFields } from '../../../components/organisation-fields.tsx';

function defaultsOf(user: TUser): TCompanyDetailsRequest {
  return {
    organisationName: user.organisationName ?? '',
    organisationLocation: user.organisationLocation ?? '',
    industry: user.industry ?? '',
    // '' is "no choice yet"; the schema answers it with "This field is required."
    companySize: (user.companySize ?? '') as TCompanyDetailsRequest['companySize'],
  };
}

/** The account's business details (PUT /user/company-details). Save is offered once something changed. */
export function BusinessDetailsCard({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const update = useUpdateCompanyDetails();
  const form = useForm<TCompanyDetailsRequest>({
    resolver: zodResolver(ZCompanyDetailsRequest),
    defaultValues: defaultsOf(user),
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => {
        form.reset(defaultsOf(saved));
        snackbar.show({ type: 'success', title: t('myAccount.business.saved') });
      },
    }),
  );

  return (
    <AccountSection
      id="business-details-title"
      title={t('myAccount.business.title')}
      description={t('myAccount.business.description')}
    >
      <Box component="form" noValidate onSubmit={handleSubmit}>
        <Box component="fieldset" disabled={update.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
          <Grid container spacing={2}>
            <OrganisationFields control={form.control} />
          </Grid>
          {update.isError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {update.error.message}
            </Alert>
          ) : null}
          <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
            <Button color="inherit" onClick={() => form.reset(defaultsOf(user))} disabled={!form.formState.isDirty}>
              {t('actions.discard')}
            </Button>
            <SubmitButton variant="contained" loading={update.isPending} disabled={!form.formState.isDirty}>
              {t('actions.save')}
            </SubmitButton>
          </Stack>
        </Box>
      </Box>
    </AccountSection>
  );
}
