import AddIcon from '@mui/icons-material/Add';
import BiotechOutlinedIcon from '@mui/icons-material/BiotechOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { TManagedBetaFeature } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { QueryError } from '../../../components/query-state.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { problemMessage } from '../../../lib/problems.ts';
import { useDeleteBetaFeature } from '../api/change-beta-features.ts';
import { useManagedBetaFeatures } from '../api/get-managed-beta-features.ts';
import { BetaFeatureDialog } from '../components/beta-feature-dialog.tsx';
import {
  BetaFeatureTable,
  BetaFeatureTableSkeleton,
  type BetaFeatureAction,
} from '../components/beta-feature-table.tsx';
import { BetaParticipantsDialog } from '../components/beta-participants-dialog.tsx';

type Dialog = { kind: 'create' } | { kind: BetaFeatureAction; feature: TManagedBetaFeature };

/** Delete a beta feature: a confirmation naming it, the server's refusal in the dialog. */
function DeleteBetaFeatureDialog({ feature, onClose }: { feature: TManagedBetaFeature; onClose: () => void }) {
  const { t } = useTranslation('beta');
  const snackbar = useSnackbar();
  const remove = useDeleteBetaFeature();
  return (
    <ConfirmDialog
      open
      title={t('management.delete.title', { name: feature.name })}
      confirmLabel={t('management.delete.confirm')}
      isDestructive
      isPending={remove.isPending}
      error={remove.isError ? problemMessage(remove.error) : null}
      onConfirm={() =>
        remove.mutate(feature.id, {
          onSuccess: () => {
            snackbar.show({ type: 'success', title: t('management.delete.done', { name: feature.name }) });
            onClose();
          },
        })
      }
      onClose={onClose}
    >
      {t('management.delete.text')}
    </ConfirmDialog>
  );
}

/**
 * Beta management (issue 35 §1), management-admin: Connect Beta's catalogue — each beta feature's
 * name, the feature key an opt-in switches on, who may opt in, how many accounts opted in and are
 * invited. Create, edit and delete a feature; open its participants to see who opted in and to
 * invite accounts to a feature by invitation.
 */
export function BetaManagementPage() {
  const { t } = useTranslation('beta');
  const features = useManagedBetaFeatures();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const createButton = (variant: 'contained' | 'outlined') => (
    <Button
      variant={variant}
      startIcon={<AddIcon />}
      onClick={() => setDialog({ kind: 'create' })}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('management.create')}
    </Button>
  );

  return (
    <Page title={t('management.title')} description={t('management.description')} actions={createButton('contained')}>
      {features.isPending ? (
        <BetaFeatureTableSkeleton />
      ) : features.isError ? (
        <QueryError
          message={`${t('management.loadError')} ${problemMessage(features.error)}`}
          onRetry={() => void features.refetch()}
          retryLabel={t('management.retry')}
        />
      ) : features.data.length === 0 ? (
        <Box sx={{ py: 6, textAlign: 'center', border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <StaffListEmpty
            icon={<BiotechOutlinedIcon />}
            text={t('management.empty')}
            action={createButton('outlined')}
          />
        </Box>
      ) : (
        <BetaFeatureTable features={features.data} onAction={(feature, kind) => setDialog({ kind, feature })} />
      )}
      {dialog?.kind === 'create' ? (
        <BetaFeatureDialog feature={null} onClose={close} />
      ) : dialog?.kind === 'edit' ? (
        <BetaFeatureDialog feature={dialog.feature} onClose={close} />
      ) : dialog?.kind === 'delete' ? (
        <DeleteBetaFeatureDialog feature={dialog.feature} onClose={close} />
      ) : dialog?.kind === 'participants' ? (
        <BetaParticipantsDialog feature={dialog.feature} onClose={close} />
      ) : null}
    </Page>
  );
}
