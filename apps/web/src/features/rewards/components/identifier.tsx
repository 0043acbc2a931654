import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { CopyButton } from '../../../components/copy-button.tsx';

export const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** `0x12ab…9f3c` (shared/UI.md). */
function shortenMiddle(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** An address or transaction id: monospace, shortened in the middle (the whole value in its title), with a copy button. */
export function Identifier({ value, copyLabel }: { value: string; copyLabel: string }) {
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Box component="code" title={value} sx={{ fontFamily: MONOSPACE, fontSize: 13 }}>
        {shortenMiddle(value)}
      </Box>
      <CopyButton value={value} label={copyLabel} />
    </Stack>
  );
}
