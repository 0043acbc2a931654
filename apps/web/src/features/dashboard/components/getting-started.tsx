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
import type { GettingStartedStep } from '@connect/shared';
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

/**
 * The getting-started checklist at the top of the dashboard (issue 11): verify identity → select
 * networks → register an application → first gateway call → first token, each ticked from what
 * the account has really done (GET /user/{id}/getting-started), each linking to where it is done.
 * The next step to take is the one primary action. The card folds to its header on request and
 * is gone once every step is done.
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
            {checklist.isSuccess ? (
              <Typography variant="body2" color="text.secondary">
                {t('dashboard.gettingStarted.progress', { done: doneCount, count: steps.length })}
              </Typography>
            ) : null}
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
        {checklist.isSuccess ? (
          <LinearProgress
            variant="determinate"
            value={(doneCount / steps.length) * 100}
            aria-hidden
            sx={{ mt: 1.5, height: 6, borderRadius: 3 }}
          />
        ) : null}
        <Collapse in={!isCollapsed} id={listId}>
          <Box sx={{ pt: 2.5 }}>
            <QueryState
              query={checklist}
              loading={
                <Box
                  aria-busy="true"
                  aria-label={t('dashboard.gettingStarted.loading')}
                  sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'repeat(5, 1fr)' } }}
                >
                  {[0, 1, 2, 3, 4].map((row) => (
                    <Stack key={row} direction="row" spacing={1.5}>
                      <Skeleton variant="circular" width={24} height={24} />
                      <Box sx={{ flex: 1 }}>
                        <Skeleton width="70%" />
                        <Skeleton width="90%" />
                      </Box>
                    </Stack>
                  ))}
                </Box>
              }
              errorMessage={t('dashboard.gettingStarted.loadFailed')}
              errorVariant="row"
            >
              {() => (
                <Box
                  component="ol"
                  sx={{
                    listStyle: 'none',
                    p: 0,
                    m: 0,
                    display: 'grid',
                    gap: { xs: 2, lg: 2.5 },
                    gridTemplateColumns: { xs: '1fr', lg: 'repeat(5, 1fr)' },
                  }}
                >
                  {steps.map(({ step, isDone }) => (
                    <Box component="li" key={step} sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
                      {isDone ? (
                        <CheckCircleIcon color="success" aria-hidden sx={{ mt: '1px' }} />
                      ) : (
                        <RadioButtonUncheckedIcon aria-hidden sx={{ mt: '1px', color: 'text.disabled' }} />
                      )}
                      <Box sx={{ minWidth: 0 }}>
                        <Typography variant="h4" component="h3" sx={isDone ? { color: 'text.secondary' } : undefined}>
                          {t(`dashboard.gettingStarted.steps.${step}.title`)}
                          <Box component="span" sx={visuallyHidden}>
                            {isDone ? t('dashboard.gettingStarted.done') : t('dashboard.gettingStarted.notDone')}
                          </Box>
                        </Typography>
                        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
                          {t(`dashboard.gettingStarted.steps.${step}.description`)}
                        </Typography>
                        {isDone ? null : (
                          <Button
                            component={RouterLink}
                            to={stepHref(step, slug)}
                            variant={step === next ? 'contained' : 'text'}
                            size="small"
                            sx={{ mt: 1, ...(step === next ? {} : { px: 0, minWidth: 0 }) }}
                          >
                            {t(`dashboard.gettingStarted.steps.${step}.action`)}
                          </Button>
                        )}
                      </Box>
                    </Box>
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
