import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatDate } from '../../../lib/format.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useAcceptTerms } from '../api/accept-terms.ts';
import { useTermsVersion } from '../../../lib/user/get-terms-version.ts';
import { OnboardingCard } from '../components/onboarding-card.tsx';
import { SignOutButton } from '../components/sign-out-button.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { QueryState } from '../../../components/query-state.tsx';

/** /terms-conditions (blank layout): the latest terms, accepted before anything else (spec §5). */
export function TermsConditionsPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const terms = useTermsVersion();
  const accept = useAcceptTerms();
  const [isChecked, setIsChecked] = useState(false);
  const [isCheckMissing, setIsCheckMissing] = useState(false);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!terms.data) return;
    if (!isChecked) {
      setIsCheckMissing(true);
      return;
    }
    accept.mutate(
      { version: terms.data.version },
      // The gate decides what comes next (the profile form when it is incomplete).
      { onSuccess: () => void navigate(paths.dashboard) },
    );
  };

  return (
    <OnboardingCard
      title={t('terms.title')}
      description={t('terms.description', { product: runtimeConfig().productName })}
    >
      <QueryState
        query={terms}
        loading={
          <Stack spacing={1.5} aria-busy="true" aria-label={t('terms.loading')}>
            <Skeleton variant="rounded" height={88} />
            <Skeleton width="60%" />
            <Skeleton variant="rounded" width={120} height={40} />
          </Stack>
        }
        errorMessage={t('terms.loadFailed')}
      >
        {(latest) => (
          <Box component="form" noValidate onSubmit={handleSubmit}>
            <Box component="fieldset" disabled={accept.isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
              <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2.5, mb: 3 }}>
                <Typography variant="h3" component="h2">
                  {latest.title}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                  {t('terms.versionLine', { version: latest.version, date: formatDate(latest.publishedAt) })}
                </Typography>
                <Link
                  href={latest.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 1.5 }}
                >
                  {t('terms.readFull')}
                  <OpenInNewIcon fontSize="inherit" titleAccess={t('opensInNewTab')} />
                </Link>
              </Box>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={isChecked}
                    onChange={(event) => {
                      setIsChecked(event.target.checked);
                      if (event.target.checked) setIsCheckMissing(false);
                    }}
                    slotProps={{ input: { 'aria-describedby': isCheckMissing ? 'terms-check-error' : undefined } }}
                  />
                }
                label={t('terms.checkbox', { title: latest.title })}
              />
              {isCheckMissing ? (
                <FormHelperText id="terms-check-error" error>
                  {t('terms.checkRequired')}
                </FormHelperText>
              ) : null}
              {accept.isError ? (
                <Alert severity="error" sx={{ mt: 2 }}>
                  {accept.error.message}
                </Alert>
              ) : null}
              <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'space-between', alignItems: 'center' }}>
                <SignOutButton />
                <SubmitButton variant="contained" size="large" loading={accept.isPending}>
                  {t('terms.accept')}
                </SubmitButton>
              </Stack>
            </Box>
          </Box>
        )}
      </QueryState>
    </OnboardingCard>
  );
}
