import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TBetaParticipant, TManagedBetaFeature } from '@connect/shared';
import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useInviteToBeta, useRemoveBetaInvitation } from '../api/change-beta-features.ts';
import { useBetaParticipants } from '../api/get-managed-beta-features.ts';
import { FailureAlert } from './form-dialog-frame.tsx';
import { applyFieldErrors } from './invite-user-dialog.tsx';

const COLUMNS = ['account', 'status', 'optedInAt', 'optedInBy', 'actions'] as const;

/** Invite an account by its id (a feature by invitation): the account may then see it and opt in. */
function InviteForm({ feature }: { feature: TManagedBetaFeature }) {
  const { t } = useTranslation('beta');
  const snackbar = useSnackbar();
  const invite = useInviteToBeta();
  const [failure, setFailure] = useState<string | null>(null);
  const schema = useMemo(
    () =>
      z.object({
        accountId: z
          .string()
          .trim()
          .pipe(z.uuid({ message: t('management.participants.invite.invalid') })),
      }),
    [t],
  );
  const form = useForm<{ accountId: string }>({
    resolver: zodResolver(schema),
    defaultValues: { accountId: '' },
    mode: 'onTouched',
  });
  const isSending = form.formState.isSubmitting || invite.isPending;
  const handleSubmit = form.handleSubmit(async ({ accountId }) => {
    setFailure(null);
    try {
      await invite.mutateAsync({ featureId: feature.id, accountId });
      snackbar.show({ type: 'success', title: t('management.participants.invite.done') });
      form.reset();
    } catch (error) {
      if (!applyFieldErrors(error, ['accountId'] as const, form.setError)) setFailure(problemMessage(error));
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void handleSubmit(event)}>
      <fieldset disabled={isSending} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <FormTextField
            control={form.control}
            name="accountId"
            label={t('management.participants.invite.label')}
            helperText={t('management.participants.invite.hint')}
            size="small"
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false, style: { fontFamily: 'monospace' } } }}
          />
          <SubmitButton loading={isSending} variant="outlined" sx={{ mt: { sm: 0.25 } }}>
            {t('management.participants.invite.submit')}
          </SubmitButton>
        </Stack>
      </fieldset>
      <Box sx={{ mt: failure ? 1.5 : 0 }}>
        <FailureAlert title={t('management.participants.invite.failed')} failure={failure} />
      </Box>
    </Box>
  );
}

function ParticipantRow({
  participant,
  onRemove,
}: {
  participant: TBetaParticipant;
  onRemove: (participant: TBetaParticipant) => void;
}) {
  const { t } = useTranslation('beta');
  const account = participant.organisationName ?? participant.accountId;
  const removeLabel = t('management.participants.remove', { account });
  return (
    <TableRow hover>
      <TableCell sx={{ minWidth: 200 }}>
        <Typography variant="body2" component="span" sx={{ display: 'block', fontWeight: 600 }}>
          {participant.organisationName ?? t('management.participants.noOrganisation')}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          {participant.accountId}
        </Typography>
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
          {participant.optedIn ? (
            <Chip size="small" color="success" variant="outlined" label={t('management.participants.optedIn')} />
          ) : null}
          {participant.invited ? (
            <Chip size="small" color="secondary" variant="outlined" label={t('management.participants.invited')} />
          ) : null}
        </Stack>
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {participant.optedInAt ? formatDateTime(participant.optedInAt) : t('management.participants.notYet')}
      </TableCell>
      <TableCell>{participant.optedInBy ?? '–'}</TableCell>
      <TableCell>
        {participant.invited ? (
          <Tooltip title={removeLabel}>
            <IconButton
              size="small"
              aria-label={removeLabel}
              onClick={() => onRemove(participant)}
              sx={{ '&:hover': { color: 'error.main' } }}
            >
              <PersonRemoveOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

/**
 * Who takes part in a beta feature (issue 35 §1, "staff see who opted in to what"): each account
 * that opted in or is invited, its organisation, when it opted in and who did it. Staff invite an
 * account by its id to a feature by invitation, and remove an invitation after confirming.
 */
export function BetaParticipantsDialog({ feature, onClose }: { feature: TManagedBetaFeature; onClose: () => void }) {
  const { t } = useTranslation('beta');
  const snackbar = useSnackbar();
  const titleId = useId();
  const participants = useBetaParticipants(feature.id);
  const remove = useRemoveBetaInvitation();
  const [removing, setRemoving] = useState<TBetaParticipant | null>(null);

  const handleRemove = () => {
    if (!removing) return;
    remove.mutate(
      { featureId: feature.id, accountId: removing.accountId },
      {
        onSuccess: () => {
          snackbar.show({ type: 'success', title: t('management.participants.removed') });
          setRemoving(null);
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{t('management.participants.title', { name: feature.name })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          {feature.access === 'INVITATION' ? (
            <InviteForm feature={feature} />
          ) : (
            <Alert severity="info">{t('management.participants.inviteOnlyOpen')}</Alert>
          )}
          <QueryState
            query={participants}
            loading={<Skeleton variant="rounded" height={120} aria-hidden />}
            errorMessage={(error) => `${t('management.participants.loadError')} ${problemMessage(error)}`}
            retryLabel={t('management.retry')}
          >
            {(list) =>
              list.length === 0 ? (
                <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                  {t('management.participants.empty')}
                </Typography>
              ) : (
                <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
                  <Table size="small" aria-label={t('management.participants.listLabel')} sx={{ minWidth: 640 }}>
                    <TableHead>
                      <TableRow>
                        {COLUMNS.map((column) => (
                          <TableCell key={column}>{t(`management.participants.columns.${column}`)}</TableCell>
                        ))}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {list.map((participant) => (
                        <ParticipantRow key={participant.accountId} participant={participant} onRemove={setRemoving} />
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              )
            }
          </QueryState>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{t('management.participants.close')}</Button>
      </DialogActions>
      {removing ? (
        <ConfirmDialog
          open
          title={t('management.participants.removeTitle', {
            account: removing.organisationName ?? removing.accountId,
          })}
          confirmLabel={t('management.participants.removeConfirm')}
          isDestructive
          isPending={remove.isPending}
          error={remove.isError ? problemMessage(remove.error) : null}
          onConfirm={handleRemove}
          onClose={() => {
            remove.reset();
            setRemoving(null);
          }}
        >
          {t(`management.participants.removeText.${feature.access}`, { name: feature.name })}
        </ConfirmDialog>
      ) : null}
    </Dialog>
  );
}
