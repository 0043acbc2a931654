import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ZCode } from '@connect/shared';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { identityErrorMessage } from '../../../lib/identity-errors.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { preferences } from '../../../lib/storage.ts';
import { useFinishTotpSetup, useTotpSetup } from '../api/totp-setup.ts';
import { CodeField } from '../../../components/code-field.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { OnboardingCard } from '../components/onboarding-card.tsx';
import { SignOutButton } from '../components/sign-out-button.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { isStaffUser } from '../../../lib/staff-mfa.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { QueryError } from '../../../components/query-state.tsx';

const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** The secret in groups of four, easier to type into an app by hand; the copy button copies it whole. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * /mfa-setup (blank layout): an authenticator app scans the QR code (or takes the secret), the
 * first code verifies it and makes TOTP the preferred second factor. Skipping is allowed and
 * remembered on this browser (spec §2.5, §3 skipMfa) — except for staff, who must use an
 * authenticator app (issue 32 §1; the gate holds them here until it is set up).
 */
export function MfaSetupPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const user = useCurrentUser();
  const productName = runtimeConfig().productName;
  const setup = useTotpSetup(user.data?.email, productName);
  const finish = useFinishTotpSetup(user.data?.id ?? '');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZCode.safeParse(code.trim());
    if (!parsed.success) {
      setCodeError(t('mfaSetup.codeInvalid'));
      return;
    }
    setCodeError(null);
    finish.mutate(parsed.data, {
      onSuccess: () => {
        snackbar.show({ type: 'success', title: t('mfaSetup.success') });
        void navigate(paths.dashboard);
      },
    });
  };

  const handleSkip = () => {
    preferences.setSkipMfa(true);
    void navigate(paths.dashboard);
  };

  const isStaff = user.data ? isStaffUser(user.data) : false;
  const isLoading = user.isPending || setup.isPending;
  const loadError = user.isError || setup.isError;

  return (
    <OnboardingCard title={t('mfaSetup.title')} description={t('mfaSetup.description')}>
      {isStaff ? (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('mfaSetup.staffRequired')}
        </Alert>
      ) : null}
      {loadError ? (
        <QueryError
          message={isStaff ? t('mfaSetup.loadFailedStaff') : t('mfaSetup.loadFailed')}
          // Only what failed: asking for the set-up again would replace the secret on screen.
          onRetry={() => void (user.isError ? user.refetch() : setup.refetch())}
          sx={{ mb: 3 }}
        />
      ) : null}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4} sx={{ mb: 4 }}>
        <Box sx={{ flexShrink: 0 }}>
          {isLoading || !setup.data ? (
            loadError ? null : (
              <Skeleton variant="rounded" width={192} height={192} aria-label={t('mfaSetup.loading')} />
            )
          ) : (
            <Box
              sx={{
                p: 1.5,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                bgcolor: 'common.white',
                width: 'fit-content',
              }}
            >
              <QRCodeSVG value={setup.data.uri} size={168} title={t('mfaSetup.qrTitle')} marginSize={0} />
            </Box>
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h3" component="h2">
            {t('mfaSetup.step1Title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {t('mfaSetup.step1Text')}
          </Typography>
          <Typography variant="body2" sx={{ mt: 2, fontWeight: 600 }} id="mfa-secret-label">
            {t('mfaSetup.secretLabel')}
          </Typography>
          {setup.data ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
              <Box
                component="code"
                aria-labelledby="mfa-secret-label"
                sx={{
                  fontFamily: MONOSPACE,
                  fontSize: '0.95rem',
                  wordBreak: 'break-all',
                  bgcolor: 'action.hover',
                  px: 1,
                  py: 0.5,
                  borderRadius: 0.5,
                }}
              >
                {groupSecret(setup.data.secret)}
              </Box>
              <CopyButton value={setup.data.secret} label={t('mfaSetup.copySecret')} />
            </Stack>
          ) : loadError ? null : (
            <Skeleton width={280} height={32} />
          )}
        </Box>
      </Stack>

      <Box component="form" noValidate onSubmit={handleSubmit}>
        <Box
          component="fieldset"
          disabled={finish.isPending || !setup.data}
          sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}
        >
          <Box component="legend" sx={{ p: 0 }}>
            <Typography variant="h3" component="span">
              {t('mfaSetup.step2Title')}
            </Typography>
          </Box>
          <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
            {t('mfaSetup.step2Text')}
          </Typography>
          <Box sx={{ maxWidth: 240 }}>
            {/* The blank hint keeps the helper line, so an error does not move the buttons. */}
            <CodeField label={t('mfaSetup.codeLabel')} value={code} onChange={setCode} error={codeError} hint=" " />
          </Box>
        </Box>
        {finish.isError ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {/* A refused code comes from the identity provider; a failed status sync from our API. */}
            {finish.error instanceof ApiError ? finish.error.message : identityErrorMessage(finish.error, 'mfaSetup')}
          </Alert>
        ) : null}
        {/* Outside the fieldset: skipping stays possible when the set-up could not start. Staff
            cannot skip; their way out is signing out, as on the other onboarding steps. */}
        <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'space-between', alignItems: 'center' }}>
          {isStaff ? (
            <SignOutButton />
          ) : (
            <Button color="inherit" onClick={handleSkip} disabled={finish.isPending}>
              {t('mfaSetup.skip')}
            </Button>
          )}
          <SubmitButton variant="contained" size="large" loading={finish.isPending} disabled={!setup.data}>
            {t('mfaSetup.submit')}
          </SubmitButton>
        </Stack>
      </Box>
    </OnboardingCard>
  );
}
