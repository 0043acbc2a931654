import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { TAuditEntry } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { OutcomeChip } from './status-chips.tsx';

/**
 * The account's latest audit entries (about it, its users and its orders): what, who and when.
 * Administrators, who may read the audit log, get a link to the account's entries there.
 */
export function AccountActivity({
  entries,
  accountId,
  isAdmin,
}: {
  entries: TAuditEntry[];
  accountId: string;
  isAdmin: boolean;
}) {
  const { t } = useTranslation('staff');
  if (entries.length === 0) {
    return <Typography color="text.secondary">{t('accounts.activity.none')}</Typography>;
  }
  return (
    <>
      <Box component="ol" aria-label={t('accounts.details.activity')} sx={{ m: 0, p: 0 }}>
        {entries.map((entry) => (
          <Box component="li" key={entry.id} sx={{ py: 1, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 600 }}>{t(`audit.actions.${entry.action}`)}</Typography>
              {entry.outcome !== 'DONE' ? <OutcomeChip outcome={entry.outcome} /> : null}
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {t('accounts.activity.line', { actor: entry.actorEmail, date: formatDateTime(entry.occurredAt) })}
            </Typography>
          </Box>
        ))}
      </Box>
      {isAdmin ? (
        <Link
          component={RouterLink}
          to={`${paths.auditLog}?recordType=account&recordId=${encodeURIComponent(accountId)}`}
          sx={{ display: 'inline-block', mt: 1 }}
        >
          {t('accounts.activity.all')}
        </Link>
      ) : null}
    </>
  );
}
