import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { GETTING_STARTED_STEPS, type GettingStartedStep } from '@connect/shared';
import { QueryState } from '../../../components/query-state.tsx';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { paths } from '../../../config/paths.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useGettingStarted } from '../api/get-getting-started.ts';

/** Whether the user folded the checklist away; kept like the side menu's collapsed state. */
export const GETTING_STARTED_COLLAPSED_KEY = 'gettingStartedCollapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(GETTING_STARTED_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

function writeCollapsed(value: boolean): void {
  try {
    localStorage.setItem(GETTING_STARTED_COLLAPSED_KEY, String(value));
  } catch {
    // Storage can be unavailable (private modes, quotas): the card still folds for this visit.
  }
}

/** Where each step is done. */
function stepHref(step: GettingStartedStep, slug: string): string {
  switch (step) {
    case 'verifyIdentity':
      return paths.flowsKyc(slug);
    case 'selectNetworks':
      return paths.selectNewNetworks;
    case 'registerApplication':
      return paths.registerApplication;
    // The application's page shows its gateway endpoint and how to call it.
    case 'firstGatewayCall':
      return paths.myApplications;
    case 'firstToken':
      return paths.createSmartContract(slug);
  }
}

/** One step of the checklist; `isDone` undefined while the checklist loads. */
function StepItem({
  step,
  isDone,
  isNext,
  slug,
}: {
  step: GettingStartedStep;
  isDone: boolean | undefined;
  isNext: boolean;
  slug: string;
}) {
  const { t } = useTranslation('account');
  const isLoading = isDone === undefined;
  return (
    <Box component="li" sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
      {isLoading ? (
        <Skeleton variant="circular" width={24} height={24} sx={{ mt: '1px', flexShrink: 0 }} />
      ) : isDone ? (
        <CheckCircleIcon color="success" aria-hidden sx={{ mt: '1px' }} />
      ) : (
        <RadioButtonUncheckedIcon aria-hidden sx={{ mt: '1px', color: 'text.disabled' }} />
      )}
      <Box sx={{ minWidth: 0, flex: isLoading ? 1 : undefined }}>
        <Typography variant="h4" component="h3" sx={isDone ? { color: 'text.secondary' } : undefined}>
          {t(`dashboard.gettingStarted.steps.${step}.title`)}
          {isLoading ? null : (
            <Box component="span" sx={visuallyHidden}>
              {isDone ? t('dashboard.gettingStarted.done') : t('dashboard.gettingStarted.notDone')}
            </Box>
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
          {t(`dashboard.gettingStarted.steps.${step}.description`)}
        </Typography>
        {isLoading ? (
          // The small button's height (30.75 px), so the card keeps its size when the ticks arrive.
          <Skeleton variant="rounded" width={112} height={30.75} sx={{ mt: 1 }} />
        ) : isDone ? null : (
          <Button
            component={RouterLink}
            to={stepHref(step, slug)}
            variant={isNext ? 'contained' : 'text'}
            size="small"
            sx={{ mt: 1, ...(isNext ? {} : { px: 0, minWidth: 0 }) }}
          >
            {t(`dashboard.gettingStarted.steps.${step}.action`)}
          </Button>
        )}
      </Box>
    </Box>
  );
}

const STEP_LIST_SX = {
  listStyle: 'none',
  p: 0,
  m: 0,
  display: 'grid',
  gap: { xs: 2, lg: 2.5 },
  gridTemplateColumns: { xs: '1fr', lg: 'repeat(5, 1fr)' },
} as const;

/**
 * The getting-started checklist at the top of the dashboard (issue 11): verify identity → select
 * networks → register an application → first gateway call → first token, each ticked from what
 * the account has really done (GET /user/{id}/getting-started), each linking to where it is done.
 * The next step to take is the one primary action. The card folds to its header on request and
 * is gone once every step is done.
 *
 * While the ticks load, the card already has its final shape: the five steps' titles and
 * descriptions are the portal's own texts, only the icons, the buttons and the progress line wait
 * as skeletons of their final size. A smaller skeleton grew the card by ~140 px when the answer
 * came and shifted everything below it (Lighthouse CLS 0.059 on /dashboard, issue 30).
 */
export function GettingStarted({ userId }: { userId: string }) {
  const { t } = useTranslation('account');
  const checklist = useGettingStarted(userId);
  const [isCollapsed, setIsCollapsed] = useState(readCollapsed);
  const titleId = useId();
  const listId = useId();
  const slug = runtimeConfig().productSlug;

  const steps = checklist.data?.steps ?? [];
  const doneCount = steps.filter((s) => s.isDone).length;
  if (checklist.isSuccess && doneCount === steps.length) return null;
  const next = steps.find((s) => !s.isDone)?.step;

  const handleToggle = () => {
    writeCollapsed(!isCollapsed);
    setIsCollapsed(!isCollapsed);
  };

  return (
    <Card component="section" aria-labelledby={titleId}>
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography id={titleId} variant="h3" component="h2">
              {t('dashboard.gettingStarted.title')}
            </Typography>
            {checklist.isError ? null : (
              <Typography variant="body2" color="text.secondary">
                {checklist.isSuccess ? (
                  t('dashboard.gettingStarted.progress', { done: doneCount, count: steps.length })
                ) : (
                  <Skeleton width={120} />
                )}
              </Typography>
            )}
          </Box>
          <Button
            variant="text"
            size="small"
            onClick={handleToggle}
            aria-expanded={!isCollapsed}
            aria-controls={listId}
            endIcon={isCollapsed ? <ExpandMoreIcon /> : <ExpandLessIcon />}
          >
            {isCollapsed ? t('dashboard.gettingStarted.show') : t('dashboard.gettingStarted.hide')}
          </Button>
        </Stack>
        {checklist.isError ? null : (
          <LinearProgress
            variant="determinate"
            value={checklist.isSuccess ? (doneCount / steps.length) * 100 : 0}
            aria-hidden
            sx={{ mt: 1.5, height: 6, borderRadius: 3 }}
          />
        )}
        <Collapse in={!isCollapsed} id={listId}>
          <Box sx={{ pt: 2.5 }}>
            <QueryState
              query={checklist}
              loading={
                <Box
                  component="ol"
                  aria-busy="true"
                  aria-label={t('dashboard.gettingStarted.loading')}
                  sx={STEP_LIST_SX}
                >
                  {GETTING_STARTED_STEPS.map((step) => (
                    <StepItem key={step} step={step} isDone={undefined} isNext={false} slug={slug} />
                  ))}
                </Box>
              }
              errorMessage={t('dashboard.gettingStarted.loadFailed')}
              errorVariant="row"
            >
              {() => (
                <Box component="ol" sx={STEP_LIST_SX}>
                  {steps.map(({ step, isDone }) => (
                    <StepItem key={step} step={step} isDone={isDone} isNext={step === next} slug={slug} />
                  ))}
                </Box>
              )}
            </QueryState>
          </Box>
        </Collapse>
      </CardContent>
    </Card>
  );
}
