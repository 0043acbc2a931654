import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import type { TUser } from '@connect/shared';
import { formatDate } from '../../../lib/format.ts';
import { useTermsVersion } from '../../../lib/user/get-terms-version.ts';
import { AccountSection, DetailRow } from './account-section.tsx';

/**
 * The terms the user accepted. The user record carries the accepted version, not the moment of
 * acceptance, so the date shown is the publication date of that version (labelled as such).
 */
export function TermsCard({ user }: { user: TUser }) {
  const { t } = useTranslation('account');
  const latest = useTermsVersion();
  const isLatestAccepted = latest.data && user.acceptedTermsVersion === latest.data.version;

  return (
    <AccountSection id="terms-title" title={t('myAccount.terms.title')}>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.terms.version')}>
          {user.acceptedTermsVersion ?? t('myAccount.terms.none')}
        </DetailRow>
        <DetailRow label={t('myAccount.terms.published')}>
          {latest.isPending ? <Skeleton width={90} /> : isLatestAccepted ? formatDate(latest.data.publishedAt) : '–'}
        </DetailRow>
      </Box>
      {latest.data ? (
        <Link
          href={latest.data.url}
          target="_blank"
          rel="noopener noreferrer"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 2 }}
        >
          {t('myAccount.terms.read', { title: latest.data.title })}
          <OpenInNewIcon fontSize="inherit" titleAccess={t('opensInNewTab')} />
        </Link>
      ) : null}
    </AccountSection>
  );
}
