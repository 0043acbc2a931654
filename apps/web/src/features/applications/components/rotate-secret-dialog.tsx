import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { SECRET_GRACE_PERIODS, type TApplication, type TRotateSecretResponse } from '@connect/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useRotateSecret } from '../api/rotate-secret.ts';
import { CredentialField } from './credential-field.tsx';

/**
 * Issues a new client secret: first the grace period of the current one, then the new secret,
 * shown this once with a copy button.
 */
export function RotateSecretDialog({
  application,
  open,
  onClose,
}: {
  application: TApplication;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  const titleId = useId();
  const graceId = useId();
  const [grace, setGrace] = useState<number>(1_440);
  const [result, setResult] = useState<TRotateSecretResponse | null>(null);
  const rotate = useRotateSecret();

  const handleClose = () => {
    if (rotate.isPending) return;
    setResult(null);
    rotate.reset();
    onClose();
  };

  const handleRotate = () =>
    rotate.mutate({ id: application.id, gracePeriodMinutes: grace }, { onSuccess: (data) => setResult(data) });

  const previous = result?.application.secrets.find((s) => s.status === 'EXPIRING');
  return (
    <Dialog open={open} onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>
        {result ? t('rotate.doneTitle', { name: application.name }) : t('rotate.title', { name: application.name })}
      </DialogTitle>
      <DialogContent>
        {result ? (
          <>
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t('secretOnce')}
            </Alert>
            <CredentialField
              label={t('fields.clientSecret')}
              value={result.clientSecret}
              copyLabel={t('copy.clientSecret')}
              isSecret
            />
            <DialogContentText sx={{ mt: 1 }}>
              {previous?.expiresAt
                ? t('rotate.graceNote', { date: formatDateTime(previous.expiresAt) })
                : t('rotate.revokedNote')}
            </DialogContentText>
          </>
        ) : (
          <>
            <DialogContentText sx={{ mb: 2 }}>{t('rotate.body')}</DialogContentText>
            <FormControl disabled={rotate.isPending}>
              <FormLabel id={graceId}>{t('rotate.grace')}</FormLabel>
              <RadioGroup
                aria-labelledby={graceId}
                value={String(grace)}
                onChange={(event) => setGrace(Number(event.target.value))}
              >
                {SECRET_GRACE_PERIODS.map((minutes) => (
                  <FormControlLabel
                    key={minutes}
                    value={String(minutes)}
                    control={<Radio />}
                    label={t(`rotate.grace${minutes}`)}
                  />
                ))}
              </RadioGroup>
            </FormControl>
            {rotate.isError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {rotate.error.message}
              </Alert>
            ) : null}
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {result ? (
          <Button variant="contained" onClick={handleClose}>
            {t('actions.done')}
          </Button>
        ) : (
          <>
            <Button color="inherit" onClick={handleClose} disabled={rotate.isPending}>
              {t('actions.cancel')}
            </Button>
            <Button variant="contained" onClick={handleRotate} loading={rotate.isPending}>
              {t('rotate.submit')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
