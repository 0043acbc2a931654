import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { planInfoQuery } from '../../../lib/plan.ts';
import { visuallyHidden } from '../../visually-hidden.ts';

/**
 * The top bar's plan (spec §2.2): the plan name (a skeleton while it loads, refreshed every
 * 10 minutes) and an upgrade button, or a disabled Pending label while a plan change is pending.
 * A failed load is only logged (spec §8); the upgrade button stays, since the upgrade page
 * applies its own PENDING guard. The name takes the room the top bar has and is cut with an
 * ellipsis only when it runs out (narrow screens); a cut name shows in full in a tooltip.
 */
export function PlanStatus() {
  const { t } = useTranslation('layout');
  const plan = useQuery(planInfoQuery());

  useEffect(() => {
    if (plan.error) console.error('The plan info could not be loaded', plan.error);
  }, [plan.error]);

  const isPending = plan.data?.status === 'PENDING';
  const showsStatus = plan.data && plan.data.status !== 'ACTIVE' && !isPending;
  const labelRef = useRef<HTMLParagraphElement>(null);
  const [isTooltipOpen, setTooltipOpen] = useState(false);
  const fullName = plan.data
    ? showsStatus
      ? `${plan.data.name} (${t(`topBar.planStatus.${plan.data.status}`)})`
      : plan.data.name
    : '';
  // Only a name cut by the ellipsis needs the tooltip: it is measured as the pointer arrives.
  const handleTooltipOpen = () => {
    const label = labelRef.current;
    setTooltipOpen(label !== null && label.scrollWidth > label.clientWidth);
  };

  return (
    // Shrinks before anything else in the top bar (the logo keeps its name): the plan name gives
    // way first when the room runs out, never the button (min-content: at 420 px the button was
    // squeezed under the bell), and then the logo's name.
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 'min-content', flexShrink: 100 }}>
      <Box aria-live="polite" aria-busy={plan.isPending} sx={{ display: { xs: 'none', sm: 'block' }, minWidth: 0 }}>
        {plan.isPending ? (
          <>
            <Skeleton variant="text" width={120} sx={{ fontSize: 14 }} aria-hidden />
            <Box component="span" sx={visuallyHidden}>
              {t('topBar.loadingPlan')}
            </Box>
          </>
        ) : plan.data ? (
          <Tooltip
            title={fullName}
            describeChild
            open={isTooltipOpen}
            onOpen={handleTooltipOpen}
            onClose={() => setTooltipOpen(false)}
          >
            <Typography ref={labelRef} variant="body2" noWrap>
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {t('topBar.plan')}:
              </Box>{' '}
              <Box component="span" sx={{ fontWeight: 600 }}>
                {plan.data.name}
              </Box>
              {showsStatus ? (
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {' '}
                  ({t(`topBar.planStatus.${plan.data.status}`)})
                </Box>
              ) : null}
            </Typography>
          </Tooltip>
        ) : null}
      </Box>
      {isPending ? (
        <Button
          variant="outlined"
          size="small"
          disabled
          title={t('topBar.pendingHint')}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          {t('topBar.pending')}
        </Button>
      ) : (
        <Button
          variant="contained"
          size="small"
          component={RouterLink}
          to={paths.accountPlanUpgrade}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          {t('topBar.upgrade')}
        </Button>
      )}
    </Box>
  );
}
