import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Link, { type LinkProps } from '@mui/material/Link';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/**
 * A link from server content: portal paths go through the router (no reload), anything starting
 * with http opens in a new tab (spec §2.2) and says so.
 */
export function ContentLink({
  url,
  children,
  ...props
}: { url: string; children: ReactNode } & Omit<LinkProps, 'href'>) {
  const { t } = useTranslation('account');
  if (isExternalUrl(url)) {
    return (
      <Link href={url} target="_blank" rel="noopener noreferrer" {...props}>
        {children}
        <OpenInNewIcon fontSize="inherit" titleAccess={t('opensInNewTab')} sx={{ ml: 0.5, verticalAlign: 'middle' }} />
      </Link>
    );
  }
  return (
    <Link component={RouterLink} to={url} {...props}>
      {children}
    </Link>
  );
}
