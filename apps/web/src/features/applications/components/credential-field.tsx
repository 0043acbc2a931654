import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { NOT_RECORDED } from '../../../lib/outside-tools/index.ts';

/** A labelled identifier in a monospace font with a copy button; long values wrap rather than hide. */
export function CredentialField({
  label,
  value,
  copyLabel,
  isSecret = false,
}: {
  label: string;
  value: string;
  copyLabel?: string;
  isSecret?: boolean;
}) {
  const labelId = useId();
  return (
    <Box sx={isSecret ? { my: 1, px: 1.5, py: 1, border: 1, borderColor: 'warning.main', borderRadius: 1 } : { py: 1 }}>
      <Typography id={labelId} variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Box
          component="code"
          aria-labelledby={labelId}
          data-testid={isSecret ? 'client-secret' : undefined}
          {...(isSecret ? NOT_RECORDED : {})}
          sx={{
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 14,
            wordBreak: 'break-all',
            flex: 1,
            fontWeight: isSecret ? 600 : undefined,
          }}
        >
          {value}
        </Box>
        {copyLabel ? <CopyButton value={value} label={copyLabel} /> : null}
      </Box>
    </Box>
  );
}
