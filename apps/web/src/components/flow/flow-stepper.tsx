import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The step labels of a flow across the top (spec §2.4, shared/UI.md); the current one is announced. */
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

/**
 * Back and the step's continue action, at the bottom right; `extra` (e.g. a progress note) sits at
 * the left. Without `continueLabel` only Back is shown.
 */
export function FlowActions({
  onBack,
  continueLabel,
  onContinue,
  isPending,
  isContinueDisabled,
  continueType = 'button',
  extra,
}: {
  onBack?: (() => void) | undefined;
  continueLabel?: string | undefined;
  onContinue?: (() => void) | undefined;
  isPending?: boolean | undefined;
  isContinueDisabled?: boolean | undefined;
  continueType?: 'button' | 'submit';
  extra?: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', mt: 4 }}>
      <Box sx={{ flex: 1 }}>{extra}</Box>
      {onBack ? (
        <Button onClick={onBack} color="inherit" disabled={isPending}>
          {t('actions.back')}
        </Button>
      ) : null}
      {continueLabel ? (
        <Button
          variant="contained"
          type={continueType}
          onClick={onContinue}
          loading={isPending ?? false}
          disabled={isContinueDisabled ?? false}
        >
          {continueLabel}
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * Moves focus to the new step's heading when the step changes (not on the first render), so
 * keyboard and screen-reader users start at the top of the step; the page scrolls to the top, so
 * the stepper shows. `step` may be any key of what is on screen: a step that changes its panel
 * in place (a deployment going from pending to success) passes a key for each panel.
 */
export function useStepFocus(step: number | string, skip = false) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const isFirst = useRef(true);
  // Read when the step changes, not a reason to run again when it changes itself.
  const skipRef = useRef(skip);
  skipRef.current = skip;
  useEffect(() => {
    if (isFirst.current) {
      isFirst.current = false;
      return;
    }
    if (skipRef.current) return;
    headingRef.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [step]);
  return headingRef;
}
