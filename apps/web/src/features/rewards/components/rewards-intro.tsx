import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import SavingsOutlinedIcon from '@mui/icons-material/SavingsOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const STEPS: { key: 'optIn' | 'tasks' | 'claim'; icon: ReactNode }[] = [
  { key: 'optIn', icon: <HowToRegOutlinedIcon color="primary" aria-hidden /> },
  { key: 'tasks', icon: <FactCheckOutlinedIcon color="primary" aria-hidden /> },
  { key: 'claim', icon: <SavingsOutlinedIcon color="primary" aria-hidden /> },
];

/** What rewards are (spec §2 "intro"): opt in, tasks checked from what the customer does, claims in QNT. */
export function RewardsIntro() {
  const { t } = useTranslation('reward');
  return (
    <Paper variant="outlined" component="section" aria-labelledby="rewards-intro" sx={{ p: 3, height: '100%' }}>
      <Typography id="rewards-intro" variant="h2" sx={{ fontSize: 18, mb: 2 }}>
        {t('intro.title')}
      </Typography>
      <Stack component="ol" spacing={2} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {STEPS.map(({ key, icon }) => (
          <Stack component="li" key={key} direction="row" spacing={1.5}>
            <Box sx={{ pt: 0.25 }}>{icon}</Box>
            <Box>
              <Typography sx={{ fontWeight: 600 }}>{t(`intro.${key}.title`)}</Typography>
              <Typography color="text.secondary" variant="body2">
                {t(`intro.${key}.body`)}
              </Typography>
            </Box>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
