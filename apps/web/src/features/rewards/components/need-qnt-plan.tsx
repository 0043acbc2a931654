import WorkspacePremiumOutlinedIcon from '@mui/icons-material/WorkspacePremiumOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { REWARD_MESSAGES } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { rewardPaths } from '../paths.ts';

/**
 * What a customer without a paid plan bought with QNT sees at /rewards (the server answered 409
 * REWARDS_NEED_QNT_PLAN): what is needed, in the contract's words, and the way to the upgrade journey.
 */
export function NeedQntPlan() {
  const { t } = useTranslation('reward');
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, textAlign: 'center', maxWidth: 640, mx: 'auto' }}>
      <WorkspacePremiumOutlinedIcon sx={{ fontSize: 48, color: 'primary.main' }} aria-hidden />
      <Typography variant="h2" sx={{ mt: 1, fontSize: 20 }}>
        {REWARD_MESSAGES.rewardsNeedQntPlan}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5 }}>
        {t('needPlan.body')}
      </Typography>
      <Button component={RouterLink} to={rewardPaths.upgrade} variant="contained" sx={{ mt: 3 }}>
        {t('needPlan.action')}
      </Button>
    </Paper>
  );
}
