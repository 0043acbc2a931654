import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Snackbar from '@mui/material/Snackbar';
import { ThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@connect/shared/light';
import { theme } from '../../theme.ts';
import type { SnackbarMessage } from './snackbar-context.ts';

export type SnackbarViewProps = {
  message: (SnackbarMessage & { key: number }) | null;
  isOpen: boolean;
  onClose: () => void;
};

/**
 * The snackbar itself (MUI Snackbar and a filled Alert), in the theme of its own: it sits beside
 * the routes, outside the routes' scope (app/app-scope.tsx).
 */
export function SnackbarView({ message, isOpen, onClose }: SnackbarViewProps) {
  const { t } = useTranslation('common');
  return (
    <ThemeProvider theme={theme}>
      <Snackbar
        key={message?.key}
        open={isOpen}
        autoHideDuration={LIMITS.snackbarMs}
        onClose={(_event, reason) => reason !== 'clickaway' && onClose()}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert
          severity={message?.type ?? 'success'}
          variant="filled"
          sx={{ minWidth: 200, alignItems: 'flex-start' }}
          action={
            <IconButton size="small" color="inherit" aria-label={t('actions.close')} onClick={onClose}>
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
    </ThemeProvider>
  );
}
