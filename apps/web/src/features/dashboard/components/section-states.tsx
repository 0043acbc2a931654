import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A section that failed to load: what failed, and a retry that refetches only that section. */
export function ErrorState({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('account');
  return (
    <Box role="alert" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2, flexWrap: 'wrap' }}>
      <ErrorOutlineIcon color="error" aria-hidden />
      <Typography sx={{ flex: 1, minWidth: 160 }}>{message}</Typography>
      <Button variant="outlined" size="small" onClick={onRetry}>
        {t('actions.retry')}
      </Button>
    </Box>
  );
}

/** A section with nothing to show yet: an icon and one sentence. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2, color: 'text.secondary' }}>
      <InboxOutlinedIcon aria-hidden />
      <Typography>{children}</Typography>
    </Box>
  );
}
