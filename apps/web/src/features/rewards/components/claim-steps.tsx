import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { REWARD_MESSAGES, type TClaim } from '@connect/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';
import { formatExactQnt } from '../format.ts';
import type { ClaimValues } from './claim-form.ts';
import { MONOSPACE } from './identifier.tsx';

/** A term and its value in a step's description list; `onEdit` adds the link back to the form. */
function Item({ label, onEdit, children }: { label: string; onEdit?: () => void; children: ReactNode }) {
  const { t } = useTranslation('reward');
  return (
    <Box sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography component="dt" variant="body2" color="text.secondary">
          {label}
        </Typography>
        {onEdit ? (
          <Button size="small" onClick={onEdit} aria-label={`${t('claim.edit')}: ${label}`}>
            {t('claim.edit')}
          </Button>
        ) : null}
      </Stack>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * The summary (spec §2 claim stepper): the address and the amount exactly as they will be sent,
 * each with a link back to the form, and the warnings — a claim cannot be undone, and claims are
 * actioned within 5 working days. `failure`: why the last confirmation was refused.
 */
export function ClaimSummary({
  values,
  failure,
  onEdit,
}: {
  values: ClaimValues;
  failure: string | null;
  onEdit: () => void;
}) {
  const { t } = useTranslation('reward');
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('claim.summaryIntro')}</Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <Item label={t('claim.address')} onEdit={onEdit}>
          <Box component="span" sx={{ fontFamily: MONOSPACE }} data-testid="summary-address">
            {values.address}
          </Box>
        </Item>
        <Item label={t('claim.amount')} onEdit={onEdit}>
          <span data-testid="summary-amount">{formatExactQnt(values.qnt)}</span>
        </Item>
      </Box>
      <Alert severity="warning">
        <AlertTitle>{t('claim.warningTitle')}</AlertTitle>
        <div>{REWARD_MESSAGES.cannotUndo}</div>
        <div>{REWARD_MESSAGES.actionedWithin}</div>
      </Alert>
      {failure ? (
        <Alert severity="error">
          <AlertTitle>{t('claim.failedTitle')}</AlertTitle>
          {failure}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** The confirmation: the claim is made; its tracking code to follow it, the amount and the address. */
export function ClaimConfirmation({ claim }: { claim: TClaim }) {
  const { t } = useTranslation('reward');
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'success.main' }}>
        <CheckCircleOutlineIcon aria-hidden />
        <Typography sx={{ fontWeight: 600 }}>{t('claim.done.title')}</Typography>
      </Stack>
      <Typography>{t('claim.done.body', { amount: formatExactQnt(claim.amountClaimed) })}</Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <Item label={t('claim.done.trackingCode')}>
          <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <Box component="span" sx={{ fontFamily: MONOSPACE, fontWeight: 600 }} data-testid="tracking-code">
              {claim.trackingCode}
            </Box>
            <CopyButton value={claim.trackingCode} label={t('claim.done.copyTrackingCode')} />
          </Stack>
        </Item>
        <Item label={t('claim.amount')}>{formatExactQnt(claim.amountClaimed)}</Item>
        <Item label={t('claim.address')}>
          <Box component="span" sx={{ fontFamily: MONOSPACE }}>
            {claim.address}
          </Box>
        </Item>
      </Box>
    </Stack>
  );
}
