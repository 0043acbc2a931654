import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A row's details beside its list: a side panel that is a labelled dialog (focus moves in, Escape
 * or the close button returns it to the row). A Dialog held to the right edge rather than MUI's
 * Drawer: the side menu uses Drawer, and a second user would move it (with Slide) into the chunk
 * every MUI page loads (vite.config.ts, the `mui` group).
 */
export function DetailsDrawer({
  title,
  subtitle,
  onClose,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      sx={{ '& .MuiDialog-container': { justifyContent: 'flex-end', alignItems: 'stretch' } }}
      slotProps={{
        paper: {
          sx: { m: 0, width: { xs: '100%', sm: 440 }, maxWidth: '100%', maxHeight: '100%', borderRadius: 0 },
        },
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'flex-start', p: 3, pb: 1, gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={titleId} variant="h2" sx={{ overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
          {subtitle ? (
            <Typography color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              {subtitle}
            </Typography>
          ) : null}
        </Box>
        <IconButton aria-label={t('actions.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Box sx={{ p: 3, pt: 1, overflowY: 'auto' }}>{children}</Box>
    </Dialog>
  );
}

/** One line of a details panel's description list. */
export function DetailItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, mt: 0.25, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}
