import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from './visually-hidden.ts';

/** Copies `value`; says "Copied" in the tooltip and to screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation('account');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // No clipboard outside a secure context: the value stays on screen to select by hand.
      setState('failed');
    }
  };

  const feedback = state === 'copied' ? t('copy.copied') : state === 'failed' ? t('copy.failed') : '';
  return (
    <>
      <Tooltip title={feedback || label}>
        <IconButton aria-label={label} onClick={() => void handleCopy()} size="small">
          {state === 'copied' ? <CheckIcon fontSize="small" color="success" /> : <ContentCopyIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Box component="span" role="status" sx={visuallyHidden}>
        {feedback}
      </Box>
    </>
  );
}
