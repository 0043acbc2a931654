import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId, type RefObject } from 'react';
import { useBlocker } from 'react-router';

/** The dialog's words; each flow passes its own from its locale namespace. */
export type LeaveGuardTexts = { title: string; body: string; stay: string; leave: string };

/**
 * Asks before leaving a half-filled or running flow (spec §2.5, shared/UI.md): in-app navigation to
 * another path shows a dialog; closing or reloading the tab gets the browser's own prompt.
 * `bypass` lets the flow leave on purpose (e.g. to identity verification) without asking.
 */
export function LeaveGuard({
  when,
  bypass,
  texts,
}: {
  when: boolean;
  bypass?: RefObject<boolean> | undefined;
  texts: LeaveGuardTexts;
}) {
  const titleId = useId();
  const textId = useId();
  const blocker = useBlocker(
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
      <DialogTitle id={titleId}>{texts.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{texts.body}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={() => blocker.reset?.()} variant="contained">
          {texts.stay}
        </Button>
        <Button onClick={() => blocker.proceed?.()} color="error">
          {texts.leave}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
