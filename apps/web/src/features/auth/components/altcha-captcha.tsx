import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import { useEffect, useId, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { solveCaptcha } from '@connect/shared';
import { getCaptchaChallenge } from '../api/get-captcha-challenge.ts';

export type CaptchaInputProps = {
  /** The solution to send with the sign-up; empty until verified (and after a failed sign-up). */
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef?: Ref<HTMLInputElement>;
  error?: string | undefined;
};

/**
 * The self-hosted captcha: an "I'm not a robot" checkbox that, when ticked, fetches a signed
 * challenge and solves its proof of work in the browser (about a second). It stays a real
 * checkbox throughout, so it keeps the keyboard focus and Space starts it; the status line is a
 * polite live region. Each solution is accepted once, so the form clears `value` after a failed
 * sign-up and the box unticks itself.
 */
export function AltchaCaptcha({ value, onChange, onBlur, inputRef, error }: CaptchaInputProps) {
  const { t } = useTranslation('auth');
  const [isVerifying, setIsVerifying] = useState(false);
  const [hasFailed, setHasFailed] = useState(false);
  const isMounted = useRef(true);
  const expiryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const statusId = useId();
  const errorId = useId();

  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
      clearTimeout(expiryTimer.current);
    };
  }, []);

  const isVerified = Boolean(value);

  async function handleVerify() {
    if (isVerified || isVerifying) return;
    setIsVerifying(true);
    setHasFailed(false);
    try {
      const challenge = await getCaptchaChallenge();
      const payload = await solveCaptcha(challenge);
      if (!isMounted.current) return;
      onChange(payload);
      // The server refuses a solution once its challenge expires (10 minutes): untick a little
      // before, so a slow form asks for a fresh check instead of failing on submit.
      const expiresAtMs = Number(new URLSearchParams(challenge.salt.split('?')[1] ?? '').get('expires')) * 1000;
      clearTimeout(expiryTimer.current);
      if (expiresAtMs > 0) {
        expiryTimer.current = setTimeout(() => isMounted.current && onChange(''), expiresAtMs - Date.now() - 15_000);
      }
    } catch {
      if (isMounted.current) setHasFailed(true);
    } finally {
      if (isMounted.current) setIsVerifying(false);
    }
  }

  const status = isVerifying
    ? t('captcha.verifying')
    : isVerified
      ? t('captcha.verified')
      : hasFailed
        ? t('captcha.failed')
        : '';
  const describedBy = [statusId, error ? errorId : undefined].filter(Boolean).join(' ');

  return (
    <Box>
      <Box
        data-testid="captcha"
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          pl: 1,
          pr: 2,
          py: 0.5,
          border: 1,
          borderRadius: 1,
          borderColor: error ? 'error.main' : 'divider',
          bgcolor: 'background.default',
        }}
      >
        <FormControlLabel
          label={t('captcha.label')}
          sx={{ mr: 0 }}
          control={
            <Checkbox
              checked={isVerified}
              onChange={() => void handleVerify()}
              onBlur={onBlur}
              icon={
                isVerifying ? (
                  <Box component="span" sx={{ width: 24, height: 24, display: 'grid', placeItems: 'center' }}>
                    <CircularProgress size={18} thickness={5} disableShrink aria-hidden />
                  </Box>
                ) : undefined
              }
              slotProps={{
                input: {
                  ref: inputRef,
                  'aria-describedby': describedBy,
                  'aria-busy': isVerifying,
                  'aria-invalid': Boolean(error),
                },
              }}
            />
          }
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
          {isVerified ? <VerifiedUserOutlinedIcon color="success" fontSize="small" aria-hidden /> : null}
          <Typography
            id={statusId}
            role="status"
            variant="body2"
            color={hasFailed && !isVerifying ? 'error' : isVerified ? 'success.main' : 'text.secondary'}
          >
            {status}
          </Typography>
        </Box>
      </Box>
      {error ? (
        <FormHelperText id={errorId} error sx={{ mx: 1.75 }}>
          {error}
        </FormHelperText>
      ) : (
        <FormHelperText sx={{ mx: 1.75 }}>{t('captcha.privacy')}</FormHelperText>
      )}
    </Box>
  );
}
