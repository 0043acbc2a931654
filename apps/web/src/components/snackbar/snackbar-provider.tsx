import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Snackbar from '@mui/material/Snackbar';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@connect/shared/light';
import { SnackbarContext, type SnackbarMessage } from './snackbar-context.ts';

/** One snackbar for the app: 2000 ms, at least 200 px wide, closable (spec §2.2, §9). */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [message, setMessage] = useState<(SnackbarMessage & { key: number }) | null>(null);
  const [isOpen, setIsOpen] = useState(false);

  const show = useCallback((next: SnackbarMessage) => {
    setMessage({ ...next, key: Date.now() });
    setIsOpen(true);
  }, []);
  const close = useCallback(() => setIsOpen(false), []);
  const api = useMemo(() => ({ show, close }), [show, close]);

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <Snackbar
        key={message?.key}
        open={isOpen}
        autoHideDuration={LIMITS.snackbarMs}
        onClose={(_event, reason) => reason !== 'clickaway' && close()}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert
          severity={message?.type ?? 'success'}
          variant="filled"
          sx={{ minWidth: 200, alignItems: 'flex-start' }}
          action={
            <IconButton size="small" color="inherit" aria-label={t('actions.close')} onClick={close}>
              <CloseIcon fontSize="small" />
            </IconButton>
          }
        >
          <AlertTitle sx={{ mb: message?.description || message?.link ? 0.5 : 0 }}>{message?.title}</AlertTitle>
          {message?.description}
          {message?.link ? (
            <>
              {' '}
              <Link href={message.link} color="inherit" underline="always">
                {message.linkTitle ?? message.link}
              </Link>
            </>
          ) : null}
          {message?.endText ? ` ${message.endText}` : null}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}
