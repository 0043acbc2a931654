import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { CopyButton } from '../../../components/copy-button.tsx';

export const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** `0x12ab…9f3c`: an identifier shortened in the middle (shared/UI.md). */
export function shortenMiddle(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** An id or address in monospace, shortened unless `isFull` (the whole value in its title), with a copy button. */
export function Identifier({
  value,
  copyLabel,
  isFull = false,
}: {
  value: string;
  copyLabel: string;
  isFull?: boolean;
}) {
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Box component="code" title={value} sx={{ fontFamily: MONOSPACE, fontSize: 13, wordBreak: 'break-all' }}>
        {isFull ? value : shortenMiddle(value)}
      </Box>
      <CopyButton value={value} label={copyLabel} />
    </Stack>
  );
}
