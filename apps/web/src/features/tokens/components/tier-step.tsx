import RadioButtonCheckedIcon from '@mui/icons-material/RadioButtonChecked';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TOKEN_TYPES, type TTierCard, type TTokenLocation, type TTokenType } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useTiers } from '../api/get-tiers.ts';
import { SandboxChip } from './token-status-chip.tsx';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 } as const;

/** One tier card (spec §3): name, description, the short function list, the credits each method costs. */
export function TierCard({
  tier,
  isSelected,
  onSelect,
}: {
  tier: TTierCard;
  isSelected: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  const titleId = useId();
  return (
    <Card
      variant="outlined"
      sx={{
        flex: 1,
        minWidth: 220,
        borderColor: isSelected ? 'primary.main' : 'divider',
        borderWidth: isSelected ? 2 : 1,
      }}
    >
      <CardActionArea
        role="radio"
        aria-checked={isSelected}
        aria-labelledby={titleId}
        onClick={onSelect}
        sx={{ height: '100%', alignItems: 'flex-start' }}
      >
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography id={titleId} variant="h3" component="h3" sx={{ fontSize: 18, fontWeight: 700 }}>
              {tier.name}
            </Typography>
            {isSelected ? (
              <RadioButtonCheckedIcon color="primary" aria-hidden />
            ) : (
              <RadioButtonUncheckedIcon color="action" aria-hidden />
            )}
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {tier.description}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5, fontWeight: 600 }}>
            {tier.refererTier ? t('stepper.tier.adds', { tier: tier.refererTier }) : t('stepper.tier.functions')}
          </Typography>
          <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
            {tier.shortListFunctions.map((name) => (
              <Chip key={name} size="small" label={name} sx={mono} />
            ))}
          </Stack>
          <Box sx={{ mt: 2 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {tier.deploymentCredits === null
                ? null
                : t('stepper.tier.credits', { credits: formatNumber(tier.deploymentCredits) })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {tier.bytecodeCredits === null || tier.deploymentCredits === null
                ? t('stepper.tier.walletUnavailable')
                : t('stepper.tier.creditsWallet', { credits: formatNumber(tier.bytecodeCredits) })}
            </Typography>
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** Step 2: the network (location), the token type, and the tier cards for that blockchain. */
export function TierStep({
  locations,
  networkId,
  tokenType,
  tierId,
  error,
  onNetwork,
  onTokenType,
  onTier,
}: {
  locations: TTokenLocation[];
  networkId: string;
  tokenType: TTokenType;
  tierId: string | null;
  error: string | null;
  onNetwork: (networkId: string) => void;
  onTokenType: (tokenType: TTokenType) => void;
  onTier: (tier: TTierCard) => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  const tiers = useTiers(networkId || null, tokenType);
  const location = locations.find((l) => l.networkId === networkId);
  const tiersLabelId = useId();
  return (
    <Stack spacing={3}>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {t('stepper.tier.heading')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <TextField
          select
          label={t('stepper.tier.network')}
          value={networkId}
          onChange={(event) => onNetwork(event.target.value)}
          sx={{ minWidth: 320 }}
        >
          {locations.map((l) => (
            <MenuItem key={l.networkId} value={l.networkId}>
              {l.network} · {l.technology} ({l.networkType})
            </MenuItem>
          ))}
        </TextField>
        <FormControl>
          <FormLabel id="token-type-label">{t('stepper.tier.tokenType')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="token-type-label"
            value={tokenType}
            onChange={(event) => onTokenType(event.target.value as TTokenType)}
          >
            {TOKEN_TYPES.map((type) => (
              <FormControlLabel key={type} value={type} control={<Radio />} label={t(`tokenType.${type}`)} />
            ))}
          </RadioGroup>
        </FormControl>
      </Stack>
      {location?.isLocal ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <SandboxChip />
          <Typography variant="body2" color="text.secondary">
            {t('sandboxHint')}
          </Typography>
        </Stack>
      ) : null}
      {location?.networkType === 'mainnet' ? <Alert severity="info">{t('stepper.tier.mainnetKyc')}</Alert> : null}
      <Box>
        <Typography id={tiersLabelId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {location ? t('stepper.tier.tiersFor', { network: location.network }) : t('stepper.tier.tiers')}
        </Typography>
        <QueryState
          query={tiers}
          loading={
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} aria-busy="true">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} variant="rounded" height={220} sx={{ flex: 1 }} />
              ))}
            </Stack>
          }
          retryLabel={t('actions.retry')}
        >
          {(cards) =>
            cards.length === 0 ? (
              <Alert severity="info">{t('stepper.tier.noTiers')}</Alert>
            ) : (
              <Stack
                role="radiogroup"
                aria-labelledby={tiersLabelId}
                direction={{ xs: 'column', md: 'row' }}
                spacing={2}
                sx={{ alignItems: 'stretch' }}
              >
                {cards.map((tier) => (
                  <TierCard key={tier.id} tier={tier} isSelected={tier.id === tierId} onSelect={() => onTier(tier)} />
                ))}
              </Stack>
            )
          }
        </QueryState>
        {error ? (
          <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
            {error}
          </Typography>
        ) : null}
      </Box>
    </Stack>
  );
}
