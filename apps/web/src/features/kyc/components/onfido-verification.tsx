import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateKycCheck } from '../api/create-kyc-check.ts';
import { useKycSdkToken } from '../api/get-kyc-sdk-token.ts';
import { loadOnfidoSdk, type OnfidoHandle } from '../onfido-sdk.ts';

const CONTAINER_ID = 'onfido-mount';

/**
 * The real provider's path: a fresh SDK token, the Onfido web SDK captures the document and a
 * selfie in the page, and on completion the check is created (with an empty body).
 */
export function OnfidoVerification({ isDisabled }: { isDisabled: boolean }) {
  const { t } = useTranslation('kyc');
  const sdkTokenRequest = useKycSdkToken();
  const createCheck = useCreateKycCheck();
  const [phase, setPhase] = useState<'idle' | 'loading' | 'capturing' | 'failed'>('idle');
  const handle = useRef<OnfidoHandle | null>(null);

  useEffect(() => () => handle.current?.tearDown(), []);

  const handleStart = async () => {
    setPhase('loading');
    try {
      const [{ token: sdkToken }, sdk] = await Promise.all([sdkTokenRequest.mutateAsync(), loadOnfidoSdk()]);
      setPhase('capturing');
      handle.current = sdk.init({
        token: sdkToken,
        containerId: CONTAINER_ID,
        steps: ['welcome', 'document', 'face', 'complete'],
        onComplete: () => {
          handle.current?.tearDown();
          handle.current = null;
          setPhase('idle');
          createCheck.mutate({});
        },
        onError: () => setPhase('failed'),
      });
    } catch {
      setPhase('failed');
    }
  };

  return (
    <Box>
      <Typography sx={{ mb: 2 }}>{t('verify.onfidoIntro')}</Typography>
      {phase === 'loading' ? <LinearProgress aria-label={t('verify.onfidoLoading')} sx={{ mb: 2 }} /> : null}
      {createCheck.isPending ? <LinearProgress aria-label={t('verify.onfidoSubmitting')} sx={{ mb: 2 }} /> : null}
      {phase === 'failed' ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {sdkTokenRequest.isError ? sdkTokenRequest.error.message : t('verify.onfidoLoadFailed')}
        </Alert>
      ) : null}
      {createCheck.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {createCheck.error.message}
        </Alert>
      ) : null}
      <div id={CONTAINER_ID} />
      {phase !== 'capturing' ? (
        <Button
          variant="contained"
          onClick={() => void handleStart()}
          disabled={isDisabled || phase === 'loading' || createCheck.isPending}
        >
          {t('verify.onfidoStart')}
        </Button>
      ) : null}
    </Box>
  );
}
