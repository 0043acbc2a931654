import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import HourglassDisabledOutlinedIcon from '@mui/icons-material/HourglassDisabledOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

const ICONS = {
  success: CheckCircleOutlineIcon,
  info: InfoOutlinedIcon,
  warning: HourglassDisabledOutlinedIcon,
  error: ErrorOutlineIcon,
} as const;

/** An outcome page (confirmed, reset, expired…): an icon, the page's h1, what happened and what next. */
export function StatusPanel({
  tone,
  title,
  children,
  actions,
}: {
  tone: keyof typeof ICONS;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const Icon = ICONS[tone];
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Box
        sx={{
          width: 56,
          height: 56,
          mx: 'auto',
          mb: 2,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          color: `${tone}.main`,
          bgcolor: (theme) => alpha(theme.palette[tone].main, 0.12),
        }}
      >
        <Icon sx={{ fontSize: 32 }} aria-hidden />
      </Box>
      <Typography variant="h1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children ? <Box sx={{ color: 'text.secondary', mb: 3 }}>{children}</Box> : null}
      {actions ? <Stack spacing={1.5}>{actions}</Stack> : null}
    </Box>
  );
}
