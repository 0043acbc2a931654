import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { runtimeConfig } from '../lib/runtime-config.ts';

/** The product mark and name (from runtime config). `to` makes it a link; blank layouts pass none. */
export function Logo({ to, inverted = false }: { to?: string; inverted?: boolean }) {
  const name = runtimeConfig().productName;
  const content = (
    <Box
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1.25,
        color: inverted ? 'common.white' : 'text.primary',
      }}
    >
      <Box component="svg" viewBox="0 0 32 32" sx={{ width: 32, height: 32 }} aria-hidden>
        <rect width="32" height="32" rx="8" fill="#1f3fbf" />
        <path
          d="M9 16a7 7 0 1 1 11.9 5l2.6 2.6-1.9 1.9-2.7-2.7A7 7 0 0 1 9 16Zm3 0a4 4 0 1 0 8 0 4 4 0 0 0-8 0Z"
          fill="#fff"
        />
      </Box>
      <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.125rem', letterSpacing: '-0.01em' }}>
        {name}
      </Typography>
    </Box>
  );
  if (!to) return <Box aria-label={name}>{content}</Box>;
  return (
    <Box component={RouterLink} to={to} aria-label={name} sx={{ textDecoration: 'none', display: 'inline-flex' }}>
      {content}
    </Box>
  );
}
