import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { ReactNode, Ref } from 'react';
import { CARD_MESSAGES } from '@connect/shared';

/**
 * A card payment that failed (spec §8): 'Payment has failed', the provider's reason when there is
 * one ('Your card was declined.'), and the advice to check the details or use another card.
 * `title` replaces the heading where the card was being saved rather than charged; null leaves it
 * out where the page's heading already says it.
 */
export function CardFailureAlert({
  reason,
  title = CARD_MESSAGES.failed,
  action,
  ref,
}: {
  reason?: string | null | undefined;
  title?: string | null;
  action?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <Alert severity="error" ref={ref} tabIndex={-1} {...(action ? { action } : {})} sx={{ outline: 'none' }}>
      {title ? <AlertTitle>{title}</AlertTitle> : null}
      {reason ? `${reason} ` : ''}
      {CARD_MESSAGES.checkDetails}
    </Alert>
  );
}
