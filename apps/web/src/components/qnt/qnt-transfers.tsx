import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TQntPayment } from '@connect/shared';
import { formatQnt } from '../../lib/plans/money.ts';
import { CopyButton } from '../copy-button.tsx';

/** 0x12ab…9f3c: an identifier shortened in the middle (shared/UI.md); the whole one is its title. */
export function shortHash(value: string): string {
  return value.length > 12 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value;
}

/**
 * The transfers the chain follower has seen to the deposit address for the order: each with its
 * amount and where it stands — "n of m confirmations" while it is processing, confirmed, or dropped
 * by a reorganisation of the chain.
 */
export function QntTransfers({ transfers }: { transfers: TQntPayment['transfers'] }) {
  const { t } = useTranslation('accountPlan');
  if (transfers.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="qnt-transfers-title">
      <Typography id="qnt-transfers-title" sx={{ fontWeight: 600, mb: 1 }}>
        {t('qnt.transfers')}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {transfers.map((transfer) => {
          const required = Math.max(transfer.confirmationsRequired, 1);
          const done = Math.min(transfer.confirmations, required);
          const state =
            transfer.status === 'PROCESSING'
              ? t('qnt.transfer.PROCESSING', { done, count: required })
              : t(`qnt.transfer.${transfer.status}`);
          return (
            <Box
              component="li"
              key={transfer.txHash}
              sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1 }}
              data-testid="qnt-transfer"
            >
              {/* useFlexGap: spacing's margins would override the state's ml: 'auto' (pushed to the right end). */}
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600 }}>{formatQnt(transfer.amount)}</Typography>
                <Box component="span" title={transfer.txHash} sx={{ fontFamily: 'monospace' }}>
                  {shortHash(transfer.txHash)}
                </Box>
                <CopyButton value={transfer.txHash} label={t('qnt.copyHash')} />
                <Typography
                  variant="body2"
                  color={transfer.status === 'REORGED' ? 'error' : 'text.secondary'}
                  sx={{ ml: 'auto' }}
                >
                  {state}
                </Typography>
              </Stack>
              {transfer.status === 'PROCESSING' ? (
                <LinearProgress
                  variant="determinate"
                  value={Math.round((done / required) * 100)}
                  aria-label={state}
                  sx={{ mt: 1, borderRadius: 1 }}
                />
              ) : null}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
