import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { RouteItem } from '@connect/shared';
import { breadcrumbsFor, isKnownPath } from './breadcrumbs.ts';
import { useCrumbLabels } from './crumb-labels.ts';

/**
 * The breadcrumbs above the page title (spec §2.2): one crumb per path segment, the last one the
 * current page. Earlier crumbs link only where the segment is a page the user has.
 */
export function AppBreadcrumbs({ routes }: { routes: RouteItem[] }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const labelOf = useCrumbLabels();
  // A page may name its own crumb (an invoice by its number, not the id in its path).
  const crumbs = breadcrumbsFor(pathname).map((crumb) => ({ ...crumb, label: labelOf(crumb.path) ?? crumb.label }));
  if (crumbs.length === 0) return null;
  return (
    <Breadcrumbs
      aria-label={t('breadcrumbs.label')}
      separator={<NavigateNextIcon sx={{ fontSize: 16 }} aria-hidden />}
      sx={{ mb: 1.5, fontSize: 14 }}
    >
      {crumbs.map((crumb) =>
        crumb.isCurrent ? (
          <Typography
            key={crumb.path}
            aria-current="page"
            sx={{ fontSize: 'inherit', color: 'text.primary', fontWeight: 500 }}
          >
            {crumb.label}
          </Typography>
        ) : isKnownPath(routes, crumb.path) ? (
          <Link
            key={crumb.path}
            component={RouterLink}
            to={crumb.path}
            color="text.secondary"
            sx={{ fontSize: 'inherit' }}
          >
            {crumb.label}
          </Link>
        ) : (
          <Typography key={crumb.path} sx={{ fontSize: 'inherit', color: 'text.secondary' }}>
            {crumb.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
