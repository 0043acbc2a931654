import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { FeatureSwitch, TAccountOverride } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useClearAccountOverride } from '../api/clear-account-override.ts';
import { useSetAccountOverride } from '../api/set-account-override.ts';

const CHOICES = ['plan', 'on', 'off'] as const;
type Choice = (typeof CHOICES)[number];

const CHOICE_LABELS = { plan: 'planDefault', on: 'on', off: 'off' } as const satisfies Record<Choice, string>;

function choiceOf(override: TAccountOverride | undefined): Choice {
  if (!override || !('enabled' in override.value)) return 'plan';
  return override.value.enabled ? 'on' : 'off';
}

/**
 * One feature switch's override (issue 33 §1): Plan default (no override: DELETE), On or Off (PUT
 * `{ enabled }`). A segmented control rather than a confirmation: the change is reversible with
 * one more click, and the customer's menu picks it up at their next load. The control shows the
 * choice being saved and stays disabled until the panel has the values now in force.
 */
export function FeatureOverrideControl({
  accountId,
  accountLabel,
  feature,
  name,
  override,
}: {
  accountId: string;
  /** The account as the panel names it (organisation, else the owner's email), for the snackbar. */
  accountLabel: string;
  feature: FeatureSwitch;
  /** The feature's readable name. */
  name: string;
  override: TAccountOverride | undefined;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const set = useSetAccountOverride();
  const clear = useClearAccountOverride();
  const [failure, setFailure] = useState<string | null>(null);
  const isSaving = set.isPending || clear.isPending;
  const shown: Choice = set.isPending
    ? 'enabled' in set.variables.value && set.variables.value.enabled
      ? 'on'
      : 'off'
    : clear.isPending
      ? 'plan'
      : choiceOf(override);

  const handleChange = async (choice: Choice | null) => {
    // Pressing the chosen button again deselects it in MUI's group: there is nothing to change.
    if (choice === null || choice === choiceOf(override) || isSaving) return;
    setFailure(null);
    try {
      if (choice === 'plan') {
        await clear.mutateAsync({ accountId, key: feature });
        snackbar.show({
          title: t('accounts.overrides.cleared'),
          description: t('accounts.overrides.clearedDescription', { name, account: accountLabel }),
        });
      } else {
        await set.mutateAsync({ accountId, key: feature, value: { enabled: choice === 'on' } });
        snackbar.show({
          title: t(choice === 'on' ? 'accounts.overrides.switchedOn' : 'accounts.overrides.switchedOff', {
            name,
            account: accountLabel,
          }),
        });
      }
    } catch (error) {
      setFailure(problemMessage(error));
    }
  };

  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={shown}
          disabled={isSaving}
          aria-label={t('accounts.overrides.label', { name })}
          aria-busy={isSaving}
          onChange={(_event, choice: Choice | null) => void handleChange(choice)}
        >
          {CHOICES.map((choice) => (
            <ToggleButton key={choice} value={choice} sx={{ py: 0.25, px: 1.25, textTransform: 'none' }}>
              {t(`accounts.overrides.${CHOICE_LABELS[choice]}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {override ? (
          <Chip size="small" color="primary" variant="outlined" label={t('accounts.overrides.overridden')} />
        ) : null}
      </Stack>
      {failure ? (
        <Typography role="alert" variant="body2" color="error" sx={{ mt: 0.5 }}>
          {failure}
        </Typography>
      ) : null}
    </>
  );
}
