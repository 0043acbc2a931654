import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A section with nothing to show yet: an icon and one sentence. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2, color: 'text.secondary' }}>
      <InboxOutlinedIcon aria-hidden />
      <Typography>{children}</Typography>
    </Box>
  );
}
