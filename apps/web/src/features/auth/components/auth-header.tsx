import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The page's one h1 and a line saying what the page is for. */
export function AuthHeader({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <Box component="header" sx={{ mb: 3 }}>
      <Typography variant="h1" sx={{ mb: subtitle ? 1 : 0 }}>
        {title}
      </Typography>
      {subtitle ? <Typography color="text.secondary">{subtitle}</Typography> : null}
    </Box>
  );
}
