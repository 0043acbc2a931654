import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import {
  ZPrivateNetworkReviewRequest,
  type TManagementPrivateNetwork,
  type TPrivateNetworkReviewRequest,
} from '@connect/shared';
import { useId, useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { isProblem, problemMessage } from '../../../lib/problems.ts';
import { invalidateAfterReview, useReviewPrivateNetwork } from '../api/review-private-network.ts';
import { applyFieldErrors } from './invite-user-dialog.tsx';
import { ownerEmailOf, type NetworkDecision } from './network-review-columns.tsx';

type DecisionForm = z.input<typeof ZPrivateNetworkReviewRequest>;
const FIELDS = ['note'] as const;

/**
 * A decision on a private network (issue 33 §4), confirmed in a dialog that names the network and
 * says what the owner will see: approve (an optional note to the owner), reject (the reason,
 * required — the request's own schema says so under the field before anything is sent) or
 * complete a requested removal. A network another staff member decided first answers 409: the
 * dialog says so and the list and panel are read again, so they show where it stands.
 */
export function NetworkDecisionDialog({
  network,
  decision,
  onClose,
}: {
  network: TManagementPrivateNetwork;
  decision: NetworkDecision;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const titleId = useId();
  const textId = useId();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const review = useReviewPrivateNetwork();
  const [failure, setFailure] = useState<{ isStale: boolean; title: string; text: string } | null>(null);
  const form = useForm<DecisionForm, unknown, TPrivateNetworkReviewRequest>({
    resolver: zodResolver(ZPrivateNetworkReviewRequest),
    defaultValues: { decision, note: '' },
    mode: 'onTouched',
  });
  const control = form.control as unknown as Control<DecisionForm>;
  const isSending = form.formState.isSubmitting || review.isPending;
  const key = `networkReviews.decision.${decision}` as const;
  const texts = {
    name: network.name,
    email: ownerEmailOf(network) ?? t('networkReviews.noUser'),
    date: formatDateTime(network.removalRequestedAt),
  };

  const handleSubmit = form.handleSubmit(async ({ note }) => {
    setFailure(null);
    try {
      await review.mutateAsync({ id: network.id, decision, ...(note ? { note } : {}) });
      snackbar.show({ type: 'success', title: t(`${key}.done`, texts) });
      onClose();
    } catch (error) {
      if (applyFieldErrors(error, FIELDS, form.setError)) return;
      if (isProblem(error, 'NETWORK_NOT_UNDER_REVIEW', 'NETWORK_NOT_REMOVABLE')) {
        void invalidateAfterReview(queryClient);
        setFailure({ isStale: true, title: t('networkReviews.decision.stale'), text: problemMessage(error) });
      } else {
        setFailure({ isStale: false, title: t('networkReviews.decision.failed'), text: problemMessage(error) });
      }
    }
  });
  const handleClose = () => {
    if (!isSending) onClose();
  };
  const isDestructive = decision !== 'APPROVE';

  return (
    <Dialog open onClose={handleClose} aria-labelledby={titleId} aria-describedby={textId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <DialogTitle id={titleId}>{t(`${key}.title`, texts)}</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>{t(`${key}.text`, texts)}</DialogContentText>
          <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack spacing={2} sx={{ pt: 2 }}>
              {decision === 'REJECT' ? (
                <FormTextField
                  control={control}
                  name="note"
                  label={t('networkReviews.decision.REJECT.note')}
                  helperText={t('networkReviews.decision.REJECT.noteHint')}
                  multiline
                  minRows={3}
                  required
                  autoFocus
                />
              ) : null}
              {decision === 'APPROVE' ? (
                <FormTextField
                  control={control}
                  name="note"
                  label={t('networkReviews.decision.APPROVE.note')}
                  multiline
                  minRows={2}
                />
              ) : null}
              {failure ? (
                <Alert severity={failure.isStale ? 'warning' : 'error'}>
                  <AlertTitle>{failure.title}</AlertTitle>
                  {failure.text}
                </Alert>
              ) : null}
            </Stack>
          </fieldset>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={handleClose} disabled={isSending}>
            {t('networkReviews.decision.cancel')}
          </Button>
          <SubmitButton loading={isSending} color={isDestructive ? 'error' : 'primary'}>
            {t(`${key}.confirm`)}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
