import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { FlowActions } from '../../../components/flow/flow-stepper.tsx';
import { formatNumber } from '../../../lib/format.ts';

/** Deployment step 1: what deploying a token involves, the tokens the plan still allows and the credits. */
export function CreateIntroStep({
  quotaLeft,
  credits,
  onContinue,
}: {
  /** Null: the plan sets no limit. */
  quotaLeft: number | null;
  credits: number;
  onContinue: () => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {t('stepper.intro.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t('stepper.intro.body')}
      </Typography>
      <List sx={{ listStyle: 'disc', pl: 3 }}>
        {(t('stepper.intro.points', { returnObjects: true }) as string[]).map((point) => (
          <ListItem key={point} sx={{ display: 'list-item', py: 0.5 }}>
            <ListItemText primary={point} />
          </ListItem>
        ))}
      </List>
      <Alert severity="info" sx={{ mt: 1 }}>
        {quotaLeft === null ? t('stepper.intro.quotaUnlimited') : t('stepper.intro.quota', { count: quotaLeft })}{' '}
        {t('stepper.intro.credits', { credits: formatNumber(credits) })}
      </Alert>
      <FlowActions continueLabel={t('actions.continue')} onContinue={onContinue} />
    </>
  );
}
