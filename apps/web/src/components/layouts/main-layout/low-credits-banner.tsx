import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { fetchPlansQuery, subscriptionQuery } from '../../../lib/plans/api.ts';

/** The query parameter that opens My account's Buy credits dialog (`/my-account?buy-credits`). */
export const BUY_CREDITS_PARAM = 'buy-credits';
export const BUY_CREDITS_HREF = `${paths.myAccount}?${BUY_CREDITS_PARAM}`;

/** Pages that show the warning in place (with the same actions), where a banner would repeat it. */
const PAGES_WITH_OWN_WARNING: readonly string[] = [paths.dashboard, paths.myAccount, paths.accountPlanUpgrade];
const DISMISSED_KEY = 'connect.lowCreditsDismissed';

function isDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/**
 * Warns on every page of the frame when the available credits are low (GET /subscription's
 * `lowCredits`, at PLAN_TERMS.lowCreditsThreshold): Buy credits where the plan sells bundles,
 * else Upgrade plan. Hidden for the rest of the session once dismissed; the dashboard and My
 * account keep showing their own warning.
 */
export function LowCreditsBanner() {
  const { t } = useTranslation('account');
  const { pathname } = useLocation();
  const [isHidden, setIsHidden] = useState(isDismissed);
  const subscription = useQuery(subscriptionQuery());
  const isLow = Boolean(subscription.data?.lowCredits);
  // The catalogue says whether the plan sells bundles; asked only when the warning shows.
  const plans = useQuery({ ...fetchPlansQuery(), enabled: isLow && !isHidden });

  if (!subscription.data || !isLow || isHidden || PAGES_WITH_OWN_WARNING.includes(pathname)) return null;
  const planId = subscription.data.plan.id;
  const sellsCredits = Boolean(
    plans.data?.groups.some((group) => group.tiers.some((tier) => tier.id === planId && tier.hasCreditBundles)),
  );

  const handleDismiss = () => {
    try {
      sessionStorage.setItem(DISMISSED_KEY, 'true');
    } catch {
      // Without storage the banner stays hidden until the page is loaded again.
    }
    setIsHidden(true);
  };

  return (
    <Alert
      severity="warning"
      role="status"
      aria-label={t('dashboard.credits.lowTitle')}
      onClose={handleDismiss}
      closeText={t('lowCreditsBanner.dismiss')}
      sx={{ mb: 2, alignItems: 'center' }}
    >
      {t('lowCreditsBanner.text', { formatted: formatNumber(subscription.data.credits.available) })}
      <Button
        component={RouterLink}
        to={sellsCredits ? BUY_CREDITS_HREF : paths.accountPlanUpgrade}
        size="small"
        color="inherit"
        variant="outlined"
        sx={{ ml: 1 }}
      >
        {sellsCredits ? t('lowCreditsBanner.buy') : t('lowCreditsBanner.upgrade')}
      </Button>
    </Alert>
  );
}
