import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import {
  FEATURE_SWITCHES,
  FEATURES,
  isFeatureAvailable,
  type FeatureName,
  type FeatureSwitch,
  type TAvailableFeatures,
} from '@connect/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/query-state.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useAccountFeatures } from '../api/get-account-features.ts';
import { useAccountOverrides } from '../api/get-account-overrides.ts';
import { FeatureOverrideControl } from './feature-override-control.tsx';

// The locale keys of the feature names: i18next reads ':' as its namespace separator, so the wire
// names ('mynetworks:v2', 'tokens:create') cannot be keys themselves.
const NAME_KEYS: Record<FeatureName, string> = {
  reward: 'reward',
  'mynetworks:v2': 'myNetworks',
  privateNetwork: 'privateNetwork',
  connectBeta: 'connectBeta',
  bridge: 'bridge',
  'applications:create': 'applications',
  'tokens:create': 'tokens',
  'bridges:create': 'bridgesCreated',
};

const isKnown = (name: string): name is FeatureName => (FEATURES as readonly string[]).includes(name);
const isSwitch = (name: string): name is FeatureSwitch => (FEATURE_SWITCHES as readonly string[]).includes(name);

/** A feature's readable name; one the portal does not know by its wire name. */
const featureName = (name: string, t: TFunction<'staff'>) =>
  isKnown(name) ? t(`accounts.features.names.${NAME_KEYS[name]}`) : name;

type Availability = { text: string; colour: ChipProps['color'] };

/**
 * A feature's availability in words: "Off" when absent; "Used 2 of 5" against a total; without a
 * total "On" for a switch, "Unlimited" for a counter not used yet, "Used 7, no limit" otherwise.
 * Green while available, amber when the total is used up (spec §5: available only if t > a), grey off.
 */
export function featureAvailability(features: TAvailableFeatures, name: string, t: TFunction<'staff'>): Availability {
  const entry = features[name];
  if (!entry) return { text: t('accounts.features.off'), colour: 'default' };
  const colour = isFeatureAvailable(features, name) ? 'success' : 'warning';
  if (entry.t !== null) {
    return { text: t('accounts.features.used', { used: formatNumber(entry.a), total: formatNumber(entry.t) }), colour };
  }
  if (entry.a > 0) return { text: t('accounts.features.usedUnlimited', { used: formatNumber(entry.a) }), colour };
  return { text: t(isSwitch(name) ? 'accounts.features.on' : 'accounts.features.unlimited'), colour };
}

// A row is a dt and its dd (the state) side by side, then for a switch a second dd (the override)
// across the row: a grid, because a definition list allows only a div around a dt and its dds.
const ROW_SX = {
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  alignItems: 'center',
  columnGap: 2,
  py: 0.75,
  borderBottom: 1,
  borderColor: 'divider',
} as const;

/**
 * The account's features as its customers' menu reads them (GET /management/feature/account/{id}):
 * every feature the portal knows, in its order, then any other the server sends, by its wire name.
 * Each switch has its override control under it (issue 33 §1), once the overrides have loaded; a
 * failed load of the overrides shows its error with a retry and leaves the map readable.
 */
export function AccountFeatures({ accountId, accountLabel }: { accountId: string; accountLabel: string }) {
  const { t } = useTranslation('staff');
  const features = useAccountFeatures(accountId);
  const overrides = useAccountOverrides(accountId);
  if (features.isPending) {
    return (
      <Box aria-label={t('accounts.details.featuresLoading')} role="status">
        {FEATURE_SWITCHES.map((name) => (
          <Skeleton key={name} height={32} />
        ))}
      </Box>
    );
  }
  if (features.isError) return <Typography color="error">{problemMessage(features.error)}</Typography>;
  const names = [...FEATURES, ...Object.keys(features.data).filter((name) => !isKnown(name))];
  return (
    <>
      {overrides.isError && !overrides.data ? (
        <QueryError
          variant="row"
          message={t('accounts.overrides.loadError', { message: problemMessage(overrides.error) })}
          onRetry={() => void overrides.refetch()}
        />
      ) : null}
      <Box component="dl" sx={{ m: 0 }}>
        {names.map((name) => {
          const availability = featureAvailability(features.data, name, t);
          const readable = featureName(name, t);
          return (
            <Box key={name} sx={ROW_SX}>
              <Typography component="dt" variant="body2">
                {readable}
              </Typography>
              <Box component="dd" sx={{ m: 0 }}>
                <Chip size="small" variant="outlined" color={availability.colour} label={availability.text} />
              </Box>
              {isSwitch(name) && (overrides.data || overrides.isPending) ? (
                <Box component="dd" sx={{ m: 0, mt: 0.75, gridColumn: '1 / -1' }}>
                  {overrides.data ? (
                    <FeatureOverrideControl
                      accountId={accountId}
                      accountLabel={accountLabel}
                      feature={name}
                      name={readable}
                      override={overrides.data.overrides.find((override) => override.key === name)}
                    />
                  ) : (
                    <Skeleton width={200} height={30} />
                  )}
                </Box>
              ) : null}
            </Box>
          );
        })}
      </Box>
    </>
  );
}
