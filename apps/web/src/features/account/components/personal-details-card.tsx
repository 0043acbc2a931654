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
import { ZUpdateIdentityRequest, type KycStatus, type TUpdateIdentityRequest, type TUser } from '@connect/shared';
import Typography from '@mui/material/Typography';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { UserAvatar } from '../../../components/user-avatar.tsx';
import { paths } from '../../../config/paths.ts';
import { useUpdateIdentity } from '../api/update-identity.ts';
import { invalidParamsOf } from '../../../lib/problems.ts';
import { AccountSection, DetailRow } from './account-section.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';

type Names = TUpdateIdentityRequest;

const KYC_COLOURS: Record<KycStatus, ChipProps['color']> = {
  VERIFIED: 'success',
  PENDING: 'warning',
  FAILED: 'error',
  UNVERIFIED: 'default',
};

export function PersonalDetailsCard({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const update = useUpdateIdentity();
  const [isEditing, setIsEditing] = useState(false);
  // Spec §5: after identity verification the names must match the document and cannot change.
  const isLocked = user.onfidoApplicantStatus === 'VERIFIED';
  const form = useForm<Names>({
    resolver: zodResolver(ZUpdateIdentityRequest),
    defaultValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
    mode: 'onTouched',
  });

  const handleCancel = () => {
    form.reset({ firstName: user.firstName ?? '', lastName: user.lastName ?? '' });
    update.reset();
    setIsEditing(false);
  };

  const handleSubmit = form.handleSubmit((names) => {
    update.mutate(names, {
      onSuccess: (saved) => {
        form.reset({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '' });
        setIsEditing(false);
        snackbar.show({ type: 'success', title: t('myAccount.personal.saved') });
      },
      onError: (error) => {
        // The server's field refusals (a name locked by a verification that just completed) go under their fields.
        for (const param of invalidParamsOf(error)) {
          if (param.name === 'firstName' || param.name === 'lastName')
            form.setError(param.name, { message: param.reason });
        }
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
