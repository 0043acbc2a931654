import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTranslation } from 'react-i18next';

/** The registration steps across the top (spec §2.4); the current one is announced. */
export function FlowSteps({ labels, active }: { labels: string[]; active: number }) {
  return (
    <Stepper activeStep={active} alternativeLabel sx={{ mb: 4 }}>
      {labels.map((label, index) => (
        <Step key={label} completed={index < active}>
          <StepLabel {...(index === active ? { 'aria-current': 'step' as const } : {})}>{label}</StepLabel>
        </Step>
      ))}
    </Stepper>
  );
}

/** Back and the step's continue action, at the bottom right. */
export function FlowActions({
  onBack,
  continueLabel,
  onContinue,
  isPending,
  isContinueDisabled,
  continueType = 'button',
}: {
  onBack?: () => void;
  continueLabel: string;
  onContinue?: () => void;
  isPending?: boolean;
  isContinueDisabled?: boolean;
  continueType?: 'button' | 'submit';
}) {
  const { t } = useTranslation('applicationManager');
  return (
    <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', mt: 4 }}>
      <Box sx={{ flex: 1 }} />
      {onBack ? (
        <Button onClick={onBack} color="inherit" disabled={isPending}>
          {t('actions.back')}
        </Button>
      ) : null}
      <Button
        variant="contained"
        type={continueType}
        onClick={onContinue}
        loading={isPending ?? false}
        disabled={isContinueDisabled ?? false}
      >
        {continueLabel}
      </Button>
    </Stack>
  );
}
