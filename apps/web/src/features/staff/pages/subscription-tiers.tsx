import AddIcon from '@mui/icons-material/Add';
import SellOutlinedIcon from '@mui/icons-material/SellOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { TSubscriptionTier } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useCrumbLabel } from '../../../components/layouts/main-layout/crumb-labels.ts';
import { Page } from '../../../components/page.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { paths } from '../../../config/paths.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useDeleteSubscriptionTier } from '../api/delete-subscription-tier.ts';
import { useSubscriptionTiers } from '../api/get-subscription-tiers.ts';
import { useReorderSubscriptionTiers } from '../api/reorder-subscription-tiers.ts';
import { useRetireSubscriptionTier } from '../api/retire-subscription-tier.ts';
import { useUnretireSubscriptionTier } from '../api/unretire-subscription-tier.ts';
import { TierDialog } from '../components/tier-dialog.tsx';
import {
  moveButtonId,
  TierTable,
  TierTableSkeleton,
  type MoveDirection,
  type TierAction,
} from '../components/tier-table.tsx';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; tier: TSubscriptionTier }
  | { kind: 'retire' | 'unretire' | 'delete'; tier: TSubscriptionTier };

/** Retire, put on sale again, or delete: a confirmation naming the tier, the server's refusal in the dialog. */
function TierConfirmDialog({
  dialog,
  onClose,
}: {
  dialog: { kind: 'retire' | 'unretire' | 'delete'; tier: TSubscriptionTier };
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const retire = useRetireSubscriptionTier();
  const unretire = useUnretireSubscriptionTier();
  const remove = useDeleteSubscriptionTier();
  const mutation = { retire, unretire, delete: remove }[dialog.kind];
  const { tier, kind } = dialog;
  const handleConfirm = () =>
    mutation.mutate(tier.id, {
      onSuccess: () => {
        snackbar.show({ type: 'success', title: t(`tiers.${kind}.done`, { name: tier.name }) });
        onClose();
      },
    });
  return (
    <ConfirmDialog
      open
      title={t(`tiers.${kind}.title`, { name: tier.name })}
      confirmLabel={t(`tiers.${kind}.confirm`)}
      isDestructive={kind !== 'unretire'}
      isPending={mutation.isPending}
      error={mutation.isError ? problemMessage(mutation.error) : null}
      onConfirm={handleConfirm}
      onClose={onClose}
    >
      {t(`tiers.${kind}.text`)}
    </ConfirmDialog>
  );
}

/**
 * Subscription tiers (issue 33 §3; spec §2 "an administrator create/edit form for subscription
 * tiers", §3 Subscription tier), management-admin: the plan catalogue customers buy from, in the
 * order of their plans table. Create and edit a tier, move it up or down, retire it (hidden from
 * sale, kept by the accounts on it) or put it on sale again, delete one nothing uses.
 */
export function SubscriptionTiersPage() {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const tiers = useSubscriptionTiers();
  const reorder = useReorderSubscriptionTiers();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: MoveDirection } | null>(null);
  // The crumb says what the page is called, not its path's words ("Subscription management").
  useCrumbLabel(paths.subscriptionManagement, t('tiers.title'));

  // Moving a row moves its buttons in the page: the focus goes back to the moved row's button (or,
  // at the top or bottom, its other one), so a keyboard user can keep moving it.
  useEffect(() => {
    if (!focusAfterMove || reorder.isPending) return;
    const other = focusAfterMove.direction === 'up' ? 'down' : 'up';
    const same = document.getElementById(moveButtonId(focusAfterMove.id, focusAfterMove.direction));
    const target =
      same && !same.hasAttribute('disabled') ? same : document.getElementById(moveButtonId(focusAfterMove.id, other));
    target?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove, reorder.isPending, tiers.data]);

  const handleMove = (tier: TSubscriptionTier, direction: MoveDirection) => {
    const ids = (tiers.data?.tiers ?? []).map((row) => row.id);
    const from = ids.indexOf(tier.id);
    const to = direction === 'up' ? from - 1 : from + 1;
    if (from < 0 || to < 0 || to >= ids.length) return;
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    reorder.mutate(ids, {
      onSuccess: () => setFocusAfterMove({ id: tier.id, direction }),
      onError: (error) =>
        snackbar.show({ type: 'error', title: t('tiers.move.failed'), description: problemMessage(error) }),
    });
  };
  const handleAction = (tier: TSubscriptionTier, action: TierAction) =>
    setDialog(action === 'edit' ? { kind: 'edit', tier } : { kind: action, tier });
  const createButton = (
    <Button
      variant="contained"
      startIcon={<AddIcon />}
      onClick={() => setDialog({ kind: 'create' })}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('tiers.create')}
    </Button>
  );

  return (
    <Page title={t('tiers.title')} description={t('tiers.description')} actions={createButton}>
      {tiers.isPending ? (
        <TierTableSkeleton />
      ) : tiers.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void tiers.refetch()}>
              {t('tiers.retry')}
            </Button>
          }
        >
          {t('tiers.loadError')} {problemMessage(tiers.error)}
        </Alert>
      ) : tiers.data.tiers.length === 0 ? (
        <Box sx={{ py: 6, textAlign: 'center', border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <StaffListEmpty icon={<SellOutlinedIcon />} text={t('tiers.empty')} action={createButton} />
        </Box>
      ) : (
        <TierTable tiers={tiers.data.tiers} isMoving={reorder.isPending} onMove={handleMove} onAction={handleAction} />
      )}
      {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
        <TierDialog tier={dialog.kind === 'edit' ? dialog.tier : null} onClose={() => setDialog(null)} />
      ) : dialog ? (
        <TierConfirmDialog dialog={dialog} onClose={() => setDialog(null)} />
      ) : null}
    </Page>
  );
}
