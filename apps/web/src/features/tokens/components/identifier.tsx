import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';

/** `0x12ab…9f3c`: identifiers shortened in the middle (shared/UI.md). */
export function shorten(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/**
 * An address or transaction hash: monospace, shortened in the middle (the whole value in its
 * title), a copy button and, where the network has an explorer, a link to it.
 */
export function Identifier({
  value,
  what,
  explorerUrl,
  isFull = false,
}: {
  value: string;
  /** What it is, for the buttons' labels: "contract address", "transaction id". */
  what: string;
  explorerUrl?: string | null;
  isFull?: boolean;
}) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Box
        component="code"
        title={value}
        sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13, wordBreak: 'break-all' }}
      >
        {isFull ? value : shorten(value)}
      </Box>
      <CopyButton value={value} label={t('details.copy', { what })} />
      {explorerUrl ? (
        <Tooltip title={t('details.explorer', { what })}>
          <IconButton
            size="small"
            component="a"
            href={explorerUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('details.explorer', { what })}
          >
            <OpenInNewIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
