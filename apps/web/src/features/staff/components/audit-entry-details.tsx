import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TAuditEntry } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { DetailItem, DetailsDrawer } from './details-drawer.tsx';
import { Identifier, MONOSPACE } from './identifier.tsx';
import { OutcomeChip } from './status-chips.tsx';

function Json({ label, value }: { label: string; value: Record<string, unknown> | null }) {
  const { t } = useTranslation('staff');
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="h4" component="h3">
        {label}
      </Typography>
      {value ? (
        <Box
          component="pre"
          sx={{
            fontFamily: MONOSPACE,
            fontSize: 13,
            bgcolor: 'action.hover',
            borderRadius: 1,
            p: 1.5,
            mt: 1,
            mb: 0,
            overflowX: 'auto',
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
          }}
        >
          {JSON.stringify(value, null, 2)}
        </Box>
      ) : (
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t('audit.details.none')}
        </Typography>
      )}
    </Box>
  );
}

/** An audit entry in full: who, what, on which record, when, the values before and after, the request. */
export function AuditEntryDetails({ entry, onClose }: { entry: TAuditEntry; onClose: () => void }) {
  const { t } = useTranslation('staff');
  return (
    <DetailsDrawer
      title={t(`audit.actions.${entry.action}`)}
      subtitle={`${entry.actorEmail} · ${formatDateTime(entry.occurredAt)}`}
      onClose={onClose}
    >
      <Box component="dl" sx={{ m: 0 }}>
        <DetailItem label={t('audit.columns.outcome')}>
          <OutcomeChip outcome={entry.outcome} />
        </DetailItem>
        {entry.detail ? <DetailItem label={t('audit.details.detail')}>{entry.detail}</DetailItem> : null}
        <DetailItem label={t('audit.columns.record')}>
          {entry.recordType} <Identifier value={entry.recordId} copyLabel={t('audit.details.copyRecordId')} isFull />
        </DetailItem>
        {entry.intentId ? <DetailItem label={t('audit.details.intentId')}>{entry.intentId}</DetailItem> : null}
        <DetailItem label={t('audit.columns.requestId')}>
          {entry.requestId ? (
            <Identifier value={entry.requestId} copyLabel={t('audit.details.copyRequestId')} isFull />
          ) : (
            '–'
          )}
        </DetailItem>
        <DetailItem label={t('audit.details.entryId')}>{entry.id}</DetailItem>
      </Box>
      <Json label={t('audit.details.before')} value={entry.before} />
      <Json label={t('audit.details.after')} value={entry.after} />
    </DetailsDrawer>
  );
}
