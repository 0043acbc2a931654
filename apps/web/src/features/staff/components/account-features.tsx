import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { FEATURES, isFeatureAvailable, type FeatureName, type TAvailableFeatures } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useAccountFeatures } from '../api/get-account-features.ts';

/**
 * The features staff switch on or off per account (spec §6). The server keeps the same list in
 * apps/server/src/services/entitlements/keys.ts (SWITCHES); packages/shared has no copy to import.
 */
const SWITCHES: readonly FeatureName[] = ['reward', 'mynetworks:v2', 'privateNetwork', 'connectBeta', 'bridge'];

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
  const isSwitch = (SWITCHES as readonly string[]).includes(name);
  return { text: t(isSwitch ? 'accounts.features.on' : 'accounts.features.unlimited'), colour };
}

/**
 * The account's features as its customers' menu reads them (GET /management/feature/account/{id}):
 * every feature the portal knows, in its order, then any other the server sends, by its wire name.
 */
export function AccountFeatures({ accountId }: { accountId: string }) {
  const { t } = useTranslation('staff');
  const features = useAccountFeatures(accountId);
  if (features.isPending) {
    return (
      <Box aria-label={t('accounts.details.featuresLoading')} role="status">
        {SWITCHES.map((name) => (
          <Skeleton key={name} height={32} />
        ))}
      </Box>
    );
  }
  if (features.isError) return <Typography color="error">{problemMessage(features.error)}</Typography>;
  const names = [...FEATURES, ...Object.keys(features.data).filter((name) => !isKnown(name))];
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {names.map((name) => {
        const availability = featureAvailability(features.data, name, t);
        return (
          <Box
            key={name}
            sx={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 2,
              py: 0.75,
              borderBottom: 1,
              borderColor: 'divider',
            }}
          >
            <Typography component="dt" variant="body2">
              {isKnown(name) ? t(`accounts.features.names.${NAME_KEYS[name]}`) : name}
            </Typography>
            <Box component="dd" sx={{ m: 0 }}>
              <Chip size="small" variant="outlined" color={availability.colour} label={availability.text} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
