import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Spec §2.5: leaving mid-flow warns that entered details are lost. In-app navigation asks in a
 * dialog; closing or reloading the tab gets the browser's own prompt.
 */
export function LeaveGuard({ when, bypass }: { when: boolean; bypass?: RefObject<boolean> }) {
  const { t } = useTranslation('applicationManager');
  const titleId = useId();
  const textId = useId();
  const blocker = useBlocker(
    // `bypass` lets the flow leave on purpose (e.g. to identity verification) without asking.
    ({ currentLocation, nextLocation }) =>
      when && !bypass?.current && currentLocation.pathname !== nextLocation.pathname,
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
      aria-describedby={textId}
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{t('leave.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{t('leave.body')}</DialogContentText>
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
