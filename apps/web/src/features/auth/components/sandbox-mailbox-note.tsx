import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { visuallyHidden } from '../../../components/visually-hidden.ts';

/**
 * Outside production no email leaves the server: the code is in the dev mailbox. The Sandbox chip
 * says so (UI.md), so nobody waits for an email that will never arrive.
 */
export function SandboxMailboxNote({ email }: { email?: string | undefined }) {
  const { t } = useTranslation('auth');
  const hintId = useId();
  if (!runtimeConfig().devMailbox) return null;
  const href = email ? `${paths.devMailbox}?to=${encodeURIComponent(email)}` : paths.devMailbox;
  return (
    <Box
      sx={{
        mt: 3,
        p: 1.5,
        display: 'flex',
        gap: 1.5,
        alignItems: 'flex-start',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.default',
      }}
    >
      <Chip label={t('sandbox.chip')} size="small" color="warning" variant="outlined" />
      <Typography variant="body2" color="text.secondary">
        <Trans
          t={t}
          i18nKey="sandbox.mailbox"
          components={{
            mailbox: (
              <Link href={href} target="_blank" rel="noopener" aria-describedby={hintId} sx={{ fontWeight: 600 }} />
            ),
          }}
        />
        <Box component="span" id={hintId} sx={visuallyHidden}>
          {t('sandbox.newTab')}
        </Box>
      </Typography>
    </Box>
  );
}
