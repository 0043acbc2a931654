import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Asks before leaving a half-filled or running flow (shared/UI.md): in-app navigation shows a
 * dialog; closing or reloading the tab gets the browser's own prompt.
 */
export function LeaveGuard({ when, isPending = false }: { when: boolean; isPending?: boolean }) {
  const { t } = useTranslation('quantPortfolio');
  const titleId = useId();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [when]);

  return (
    <Dialog
      open={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      aria-labelledby={titleId}
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{t('stepper.leave.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{isPending ? t('stepper.leave.pendingBody') : t('stepper.leave.body')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={() => blocker.reset?.()} variant="contained">
          {t('actions.stay')}
        </Button>
        <Button onClick={() => blocker.proceed?.()} color="error">
          {t('actions.leave')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
