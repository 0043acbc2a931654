import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TClaim } from '@connect/shared';
import { useId, useMemo, useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FlowSteps, useStepFocus } from '../../../components/flow/flow-stepper.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { invalidParamsOf, problemMessage } from '../../../lib/problems.ts';
import { useCreateClaim } from '../api/create-claim.ts';
import { formatRewardQnt } from '../format.ts';
import { rewardPaths } from '../paths.ts';
import {
  claimFormSchema,
  defaultClaimAmount,
  type ClaimBounds,
  type ClaimForm,
  type ClaimValues,
} from './claim-form.ts';
import { ClaimConfirmation, ClaimSummary } from './claim-steps.tsx';
import { MONOSPACE } from './identifier.tsx';

const FIELDS = ['address', 'qnt'] as const;

/**
 * The claim stepper (spec §2; steps Details, Summary, Confirmation): the Ethereum address and the
 * amount (2 QNT, or the balance when smaller; between the smallest claim and the balance), the
 * summary with its warnings, then POST /reward and the claim's tracking code. `bounds` follow the
 * reward state: after a refusal for the balance the page reads it again, and the form checks
 * against the new figure.
 */
export function ClaimDialog({ bounds, onClose }: { bounds: ClaimBounds; onClose: () => void }) {
  const { t } = useTranslation('reward');
  const titleId = useId();
  const claim = useCreateClaim();
  const { balance, minClaim } = bounds;
  const schema = useMemo(() => claimFormSchema({ balance, minClaim }), [balance, minClaim]);
  const form = useForm<ClaimForm, unknown, ClaimValues>({
    resolver: zodResolver(schema),
    defaultValues: { address: '', qnt: defaultClaimAmount(bounds.balance) },
    mode: 'onTouched',
  });
  const control = form.control as unknown as Control<ClaimForm>;
  const [reviewing, setReviewing] = useState<ClaimValues | null>(null);
  // One per summary: Confirm sent again after a lost answer is the same claim (the server answers it).
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [made, setMade] = useState<TClaim | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const step = made ? 2 : reviewing ? 1 : 0;
  const headingRef = useStepFocus(step);
  const isSending = claim.isPending;
  const labels = [t('claim.steps.details'), t('claim.steps.summary'), t('claim.steps.confirmation')];

  const handleReview = form.handleSubmit((values) => {
    setFailure(null);
    setIdempotencyKey(crypto.randomUUID());
    setReviewing(values);
  });
  const handleConfirm = async () => {
    if (!reviewing) return;
    setFailure(null);
    try {
      setMade(await claim.mutateAsync({ address: reviewing.address, qnt: reviewing.qnt, idempotencyKey }));
    } catch (error) {
      // A field the server refused goes back under its field; anything else is said on the summary.
      const params = invalidParamsOf(error).filter((param) => (FIELDS as readonly string[]).includes(param.name));
      if (params.length) {
        setReviewing(null);
        for (const param of params) form.setError(param.name as (typeof FIELDS)[number], { message: param.reason });
      } else {
        setFailure(problemMessage(error));
      }
    }
  };
  const handleClose = () => {
    if (!isSending) onClose();
  };

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('claim.title')}</DialogTitle>
      <DialogContent sx={{ pb: 0 }}>
        <FlowSteps labels={labels} active={step} />
        <Typography ref={headingRef} tabIndex={-1} variant="h3" sx={{ fontSize: 16, mb: 2, outline: 'none' }}>
          {labels[step]}
        </Typography>
      </DialogContent>
      {step === 0 ? (
        <form onSubmit={(event) => void handleReview(event)} noValidate>
          <DialogContent sx={{ pt: 0 }}>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <FormTextField
                control={control}
                name="address"
                label={t('claim.address')}
                helperText={t('claim.addressHelp')}
                required
                fullWidth
                autoFocus
                autoComplete="off"
                spellCheck={false}
                placeholder="0x…"
                slotProps={{ htmlInput: { style: { fontFamily: MONOSPACE } } }}
              />
              <FormTextField
                control={control}
                name="qnt"
                label={t('claim.amount')}
                helperText={t('claim.amountHelp', {
                  min: formatRewardQnt(bounds.minClaim),
                  balance: formatRewardQnt(bounds.balance),
                })}
                required
                fullWidth
                autoComplete="off"
                slotProps={{
                  htmlInput: { inputMode: 'decimal' },
                  input: { endAdornment: <InputAdornment position="end">QNT</InputAdornment> },
                }}
              />
              <Button
                size="small"
                sx={{ alignSelf: 'flex-start' }}
                onClick={() => form.setValue('qnt', bounds.balance, { shouldValidate: true, shouldTouch: true })}
              >
                {t('claim.useBalance')}
              </Button>
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button color="inherit" onClick={onClose}>
              {t('claim.cancel')}
            </Button>
            <SubmitButton>{t('claim.continue')}</SubmitButton>
          </DialogActions>
        </form>
      ) : step === 1 && reviewing ? (
        <>
          <DialogContent sx={{ pt: 0 }}>
            <ClaimSummary values={reviewing} failure={failure} onEdit={() => setReviewing(null)} />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button color="inherit" onClick={() => setReviewing(null)} disabled={isSending}>
              {t('claim.back')}
            </Button>
            <Button variant="contained" onClick={() => void handleConfirm()} loading={isSending}>
              {t('claim.confirm')}
            </Button>
          </DialogActions>
        </>
      ) : made ? (
        <>
          <DialogContent sx={{ pt: 0 }}>
            <ClaimConfirmation claim={made} />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button component={RouterLink} to={rewardPaths.claimHistory}>
              {t('claim.done.history')}
            </Button>
            <Button variant="contained" onClick={onClose}>
              {t('claim.done.close')}
            </Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
