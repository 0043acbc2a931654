import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { z } from 'zod';
import { ZUpdateUserRequest, type KycStatus, type TUser } from '@connect/shared';
import Typography from '@mui/material/Typography';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { UserAvatar } from '../../../components/user-avatar.tsx';
import { paths } from '../../../config/paths.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { AccountSection, DetailRow } from './account-section.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';

// The name rules of the profile schema (a refined schema cannot be picked from, so the shape is).
const ZNames = z.object({
  firstName: ZUpdateUserRequest.shape.firstName,
  lastName: ZUpdateUserRequest.shape.lastName,
});
type Names = z.infer<typeof ZNames>;

const KYC_COLOURS: Record<KycStatus, ChipProps['color']> = {
  VERIFIED: 'success',
  PENDING: 'warning',
  FAILED: 'error',
  UNVERIFIED: 'default',
};

/**
 * PUT /user replaces the whole profile, so a name change sends the other fields as they are.
 * Null when the profile has never been completed: there is nothing valid to send alongside.
 */
function profileWithNames(user: TUser, names: Names) {
  const parsed = ZUpdateUserRequest.safeParse({
    ...names,
    organisationName: user.organisationName ?? '',
    organisationLocation: user.organisationLocation ?? '',
    industry: user.industry ?? '',
    companySize: user.companySize ?? '',
    hearAboutUs: user.hearAboutUs ?? '',
    ...(user.hearAboutUsDescription ? { hearAboutUsDescription: user.hearAboutUsDescription } : {}),
  });
  return parsed.success ? parsed.data : null;
}

export function PersonalDetailsCard({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const update = useUpdateUser();
  const [isEditing, setIsEditing] = useState(false);
  const [isProfileIncomplete, setIsProfileIncomplete] = useState(false);
  // Spec §5: after identity verification the names must match the document and cannot change.
  const isLocked = user.onfidoApplicantStatus === 'VERIFIED';
  const form = useForm<Names>({
    resolver: zodResolver(ZNames),
    defaultValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
    mode: 'onTouched',
  });

  const handleCancel = () => {
    form.reset({ firstName: user.firstName ?? '', lastName: user.lastName ?? '' });
    update.reset();
    setIsProfileIncomplete(false);
    setIsEditing(false);
  };

  const handleSubmit = form.handleSubmit((names) => {
    const body = profileWithNames(user, names);
    if (!body) {
      setIsProfileIncomplete(true);
      return;
    }
    update.mutate(body, {
      onSuccess: (saved) => {
        form.reset({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '' });
        setIsEditing(false);
        snackbar.show({ type: 'success', title: t('myAccount.personal.saved') });
      },
    });
  });

  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');

  return (
    <AccountSection
      id="personal-details-title"
      title={t('myAccount.personal.title')}
      action={
        !isLocked && !isEditing ? (
          <Button variant="outlined" size="small" onClick={() => setIsEditing(true)}>
            {t('myAccount.personal.editName')}
          </Button>
        ) : null
      }
    >
      {isEditing ? (
        <Box component="form" noValidate onSubmit={handleSubmit} sx={{ mb: 2 }}>
          <Box component="fieldset" disabled={update.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormTextField
                control={form.control}
                name="firstName"
                label={t('fields.firstName')}
                autoComplete="given-name"
                required
              />
              <FormTextField
                control={form.control}
                name="lastName"
                label={t('fields.lastName')}
                autoComplete="family-name"
                required
              />
            </Stack>
            {isProfileIncomplete ? (
              <Alert severity="info" sx={{ mt: 2 }}>
                {t('myAccount.personal.profileIncomplete')}{' '}
                <Link component={RouterLink} to={paths.userDetails}>
                  {t('myAccount.personal.completeProfile')}
                </Link>
              </Alert>
            ) : null}
            {update.isError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {update.error.message}
              </Alert>
            ) : null}
            <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
              <Button color="inherit" onClick={handleCancel}>
                {t('actions.cancel')}
              </Button>
              <SubmitButton variant="contained" loading={update.isPending}>
                {t('actions.save')}
              </SubmitButton>
            </Stack>
          </Box>
        </Box>
      ) : null}
      {/* The large avatar of spec §2.2 (96 px), beside the name and email it stands for. */}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, minWidth: 0 }}>
        <UserAvatar firstName={user.firstName} lastName={user.lastName} email={user.email} size="large" />
        <Box sx={{ minWidth: 0 }}>
          {!isEditing ? (
            <Typography sx={{ fontWeight: 600, fontSize: 18, overflowWrap: 'anywhere' }}>
              {fullName || t('notSet')}
            </Typography>
          ) : null}
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Typography>
        </Box>
      </Stack>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.personal.role')}>{t(`options.roles.${user.role}`)}</DetailRow>
        <DetailRow label={t('myAccount.personal.identity')}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Chip
              size="small"
              color={KYC_COLOURS[user.onfidoApplicantStatus]}
              label={t(`options.kycStatus.${user.onfidoApplicantStatus}`)}
            />
            <Link component={RouterLink} to={paths.myAccountKyc}>
              {user.onfidoApplicantStatus === 'UNVERIFIED' || user.onfidoApplicantStatus === 'FAILED'
                ? t('myAccount.personal.verify')
                : t('myAccount.personal.verificationDetails')}
            </Link>
          </Stack>
        </DetailRow>
      </Box>
      {isLocked ? (
        <Alert severity="info" variant="outlined" sx={{ mt: 2 }}>
          {t('myAccount.personal.namesLocked')}
        </Alert>
      ) : null}
    </AccountSection>
  );
}
