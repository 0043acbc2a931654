import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ZUpdateUserRequest, type TOrganisationStaticData, type TUpdateUserRequest, type TUser } from '@connect/shared';
import { invalidParamsOf } from '../../../lib/problems.ts';
import { preferences } from '../../../lib/storage.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { OnboardingCard } from '../components/onboarding-card.tsx';
import { SignOutButton } from '../components/sign-out-button.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { nextStepAfterProfile } from '../utils/next-step.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { OrganisationFields, SelectSkeleton } from '../../../components/organisation-fields.tsx';
import { useOrganisationStaticData } from '../../../lib/organisations/organisations-api.ts';

type ProfileForm = TUpdateUserRequest;

const FIELDS = [
  'firstName',
  'lastName',
  'organisationName',
  'organisationLocation',
  'industry',
  'companySize',
  'hearAboutUs',
  'hearAboutUsDescription',
] as const;

/** The answers that need a few words more (the server's lists say which; the schema applies the same rule). */
function needsDescription(lists: TOrganisationStaticData | undefined, hearAboutUs: string | undefined): boolean {
  return Boolean(lists?.hearAboutUs.find((answer) => answer.value === hearAboutUs)?.descriptionRequired);
}

function defaultsOf(user: TUser | undefined): ProfileForm {
  // Empty selects start as '' (no choice yet); the schema turns that into "This field is required."
  return {
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    organisationName: user?.organisationName ?? '',
    organisationLocation: user?.organisationLocation ?? '',
    industry: user?.industry ?? '',
    companySize: (user?.companySize ?? '') as ProfileForm['companySize'],
    hearAboutUs: (user?.hearAboutUs ?? '') as ProfileForm['hearAboutUs'],
    hearAboutUsDescription: user?.hearAboutUsDescription ?? '',
  };
}

/** /user-details (blank layout): the profile the individual role fills in before anything else. */
export function UserDetailsPage() {
  const { t } = useTranslation('account');
  const user = useCurrentUser();
  return (
    <OnboardingCard title={t('userDetails.title')} description={t('userDetails.description')}>
      <QueryState
        query={user}
        loading={
          <Grid container spacing={2} aria-busy="true">
            {FIELDS.slice(0, 6).map((field) => (
              <Grid key={field} size={{ xs: 12, sm: 6 }}>
                <Skeleton variant="rounded" height={56} />
              </Grid>
            ))}
          </Grid>
        }
      >
        {(loaded) => <ProfileFormBody user={loaded} />}
      </QueryState>
    </OnboardingCard>
  );
}

function ProfileFormBody({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const update = useUpdateProfile();
  const lists = useOrganisationStaticData().data;
  const form = useForm<ProfileForm>({
    resolver: zodResolver(ZUpdateUserRequest),
    defaultValues: defaultsOf(user),
    mode: 'onTouched',
  });
  const hearAboutUs = useWatch({ control: form.control, name: 'hearAboutUs' });
  const isDescriptionShown = needsDescription(lists, hearAboutUs);

  const handleSubmit = form.handleSubmit((values) => {
    const body: TUpdateUserRequest = { ...values };
    // A description typed for EVENT and left behind by another answer is not sent.
    if (!needsDescription(lists, values.hearAboutUs)) delete body.hearAboutUsDescription;
    update.mutate(body, {
      onSuccess: (saved) => void navigate(nextStepAfterProfile(saved, preferences.skipMfa())),
      onError: (error) => {
        // Field errors of the server (spec §8) go under their fields; the message shows above the button too.
        for (const param of invalidParamsOf(error)) {
          if ((FIELDS as readonly string[]).includes(param.name)) {
            form.setError(param.name as (typeof FIELDS)[number], { message: param.reason });
          }
        }
      },
    });
  });

  return (
    <Box component="form" noValidate onSubmit={handleSubmit}>
      <Box component="fieldset" disabled={update.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={form.control}
              name="firstName"
              label={t('fields.firstName')}
              autoComplete="given-name"
              required
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={form.control}
              name="lastName"
              label={t('fields.lastName')}
              autoComplete="family-name"
              required
            />
          </Grid>
          <OrganisationFields control={form.control} />
          <Grid size={12}>
            {lists ? (
              <FormTextField control={form.control} name="hearAboutUs" label={t('fields.hearAboutUs')} select required>
                {lists.hearAboutUs.map(({ value }) => (
                  <MenuItem key={value} value={value}>
                    {t(`options.hearAboutUs.${value}`)}
                  </MenuItem>
                ))}
              </FormTextField>
            ) : (
              <SelectSkeleton label={t('staticData.loading', { field: t('fields.hearAboutUs') })} />
            )}
          </Grid>
          {isDescriptionShown ? (
            <Grid size={12}>
              <FormTextField
                control={form.control}
                name="hearAboutUsDescription"
                label={t(hearAboutUs === 'EVENT' ? 'fields.hearAboutUsEvent' : 'fields.hearAboutUsOther')}
                required
              />
            </Grid>
          ) : null}
        </Grid>
        {update.isError ? (
          <Alert severity="error" sx={{ mt: 3 }}>
            {update.error.message}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'space-between', alignItems: 'center' }}>
          <SignOutButton />
          <SubmitButton variant="contained" size="large" loading={update.isPending}>
            {t('userDetails.submit')}
          </SubmitButton>
        </Stack>
      </Box>
    </Box>
  );
}
