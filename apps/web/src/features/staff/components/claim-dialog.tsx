import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ZRejectClaimRequest, type TClaim, type TClaimDetail } from '@connect/shared';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useManagementClaim } from '../api/get-management-claim.ts';
import { usePayClaim } from '../api/pay-claim.ts';
import { useRejectClaim } from '../api/reject-claim.ts';
import { ClaimStatusChip } from './claim-columns.tsx';
import { DetailItem } from './details-drawer.tsx';
import { Identifier } from './identifier.tsx';
import { exactRewardQnt, formatRewardQnt } from './reward-format.ts';

export type ClaimStep = 'details' | 'pay' | 'reject';

type RejectForm = z.input<typeof ZRejectClaimRequest>;
type RejectValues = z.output<typeof ZRejectClaimRequest>;

/** The claim's history (spec §3: the transaction history): made, sent, resent, confirmed, reverted, rejected. */
function History({ claim }: { claim: TClaimDetail }) {
  const { t } = useTranslation('staff');
  if (claim.history.length === 0)
    return <Typography color="text.secondary">{t('claims.details.noHistory')}</Typography>;
  return (
    <Box component="ol" aria-label={t('claims.details.history')} sx={{ m: 0, pl: 2.5 }}>
      {claim.history.map((event, index) => (
        <Box component="li" key={`${event.at}-${index}`} sx={{ py: 0.5 }}>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
            {t(`claims.events.${event.status}`)}
          </Typography>{' '}
          <Typography variant="body2" component="span" color="text.secondary">
            {formatDateTime(event.at)}
          </Typography>
          {event.txHash ? <Identifier value={event.txHash} copyLabel={t('claims.details.copyTx')} /> : null}
          {event.note ? (
            <Typography variant="body2" color="text.secondary">
              {event.note}
            </Typography>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}

function Details({ claim, detail }: { claim: TClaim; detail: TClaimDetail | undefined }) {
  const { t } = useTranslation('staff');
  return (
    <Box component="dl" sx={{ m: 0 }}>
      <DetailItem label={t('claims.columns.status')}>
        <ClaimStatusChip status={claim.status} />
      </DetailItem>
      <DetailItem label={t('claims.columns.amountClaimed')}>{formatRewardQnt(claim.amountClaimed)}</DetailItem>
      <DetailItem label={t('claims.details.address')}>
        <Identifier value={claim.address} copyLabel={t('claims.details.copyAddress')} isFull />
      </DetailItem>
      <DetailItem label={t('claims.details.transaction')}>
        {claim.txHash ? (
          <Identifier value={claim.txHash} copyLabel={t('claims.details.copyTx')} isFull />
        ) : (
          t('claims.details.notSent')
        )}
      </DetailItem>
      {claim.networkName ? <DetailItem label={t('claims.details.network')}>{claim.networkName}</DetailItem> : null}
      <DetailItem label={t('claims.columns.accountId')}>
        <Identifier value={claim.accountId} copyLabel={t('claims.details.copyAccount')} isFull />
      </DetailItem>
      <DetailItem label={t('claims.columns.createdAt')}>{formatDateTime(claim.createdAt)}</DetailItem>
      <DetailItem label={t('claims.columns.completedAt')}>{formatDateTime(claim.completedAt)}</DetailItem>
      <Box sx={{ pt: 2 }}>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {t('claims.details.history')}
        </Typography>
        {detail ? <History claim={detail} /> : <Skeleton height={60} />}
      </Box>
    </Box>
  );
}

/**
 * A claim's details dialog (spec §2 Claim management): the wallet address, the payout's
 * transaction id (monospace, copyable, no link: the network's explorer is not configured) and the
 * history, kept up to date while the payout is under way. A pending claim is paid — after a
 * confirmation that says what leaves the treasury and that it cannot be undone — or rejected with
 * a reason. `claim` is the list's row, shown until the detail arrives.
 */
export function ClaimDialog({
  claim: row,
  initialStep = 'details',
  onClose,
}: {
  claim: TClaim;
  initialStep?: ClaimStep;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const titleId = useId();
  const snackbar = useSnackbar();
  const detail = useManagementClaim(row.id);
  const pay = usePayClaim();
  const reject = useRejectClaim();
  const [step, setStep] = useState<ClaimStep>(initialStep);
  const form = useForm<RejectForm, unknown, RejectValues>({
    resolver: zodResolver(ZRejectClaimRequest),
    defaultValues: { reason: '' },
    mode: 'onTouched',
  });
  const claim: TClaim = detail.data ?? row;
  const isClaimPending = claim.status === 'PENDING';
  const isSending = pay.isPending || reject.isPending;
  const texts = { code: claim.trackingCode, amount: exactRewardQnt(claim.amountClaimed), address: claim.address };

  const back = () => {
    pay.reset();
    reject.reset();
    setStep('details');
  };
  const handlePay = () =>
    pay.mutate(claim.id, {
      onSuccess: () => {
        snackbar.show({ type: 'success', title: t('claims.pay.done', texts) });
        setStep('details');
      },
    });
  const handleReject = form.handleSubmit((values) =>
    reject.mutate(
      { claimId: claim.id, reason: values.reason },
      {
        onSuccess: () => {
          snackbar.show({ type: 'success', title: t('claims.reject.done', texts) });
          onClose();
        },
      },
    ),
  );
  const handleClose = () => {
    if (!isSending) onClose();
  };

  const refusal = pay.isError ? pay.error : reject.isError ? reject.error : null;
  const failure = refusal ? <Alert severity="error">{problemMessage(refusal)}</Alert> : null;
  const title =
    step === 'pay'
      ? t('claims.pay.title', texts)
      : step === 'reject'
        ? t('claims.reject.title', texts)
        : t('claims.details.title', texts);

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth scroll="paper">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {step === 'details' || !isClaimPending ? (
        <>
          <DialogContent dividers>
            {detail.isError ? (
              <Alert severity="warning" sx={{ mb: 1 }}>
                {problemMessage(detail.error)}
              </Alert>
            ) : null}
            <Details claim={claim} detail={detail.data} />
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button color="inherit" onClick={handleClose}>
              {t('claims.details.close')}
            </Button>
            {isClaimPending ? (
              <>
                <Button color="error" onClick={() => setStep('reject')}>
                  {t('claims.actions.reject')}
                </Button>
                <Button variant="contained" onClick={() => setStep('pay')}>
                  {t('claims.actions.pay')}
                </Button>
              </>
            ) : null}
          </DialogActions>
        </>
      ) : step === 'pay' ? (
        <>
          <DialogContent>
            <Stack spacing={2}>
              <DialogContentText>{t('claims.pay.text', texts)}</DialogContentText>
              <Identifier value={claim.address} copyLabel={t('claims.details.copyAddress')} isFull />
              {failure}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button color="inherit" onClick={back} disabled={isSending}>
              {t('claims.back')}
            </Button>
            <Button variant="contained" loading={pay.isPending} onClick={handlePay} autoFocus>
              {t('claims.pay.confirm', texts)}
            </Button>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={(event) => void handleReject(event)} noValidate>
          <DialogContent>
            <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
              <Stack spacing={2}>
                <DialogContentText>{t('claims.reject.text', texts)}</DialogContentText>
                <FormTextField
                  control={form.control}
                  name="reason"
                  label={t('claims.reject.reason')}
                  helperText={t('claims.reject.reasonHint')}
                  required
                  multiline
                  minRows={2}
                  autoFocus
                  slotProps={{ htmlInput: { maxLength: 300 } }}
                />
                {failure}
              </Stack>
            </fieldset>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button color="inherit" onClick={back} disabled={isSending}>
              {t('claims.back')}
            </Button>
            <SubmitButton color="error" loading={reject.isPending}>
              {t('claims.reject.confirm')}
            </SubmitButton>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
