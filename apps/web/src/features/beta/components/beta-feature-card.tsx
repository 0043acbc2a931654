import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { TBetaFeature } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A beta feature: its name, whether it is open to every account or the account was invited, what
 * it is, and the opt-in switch. While a change is sent the switch shows the state asked for. When
 * a staff override switched the feature off for the account, a note says the opt-in has no effect.
 */
export function BetaFeatureCard({
  feature,
  pending,
  onChange,
}: {
  feature: TBetaFeature;
  /** The state being sent for this feature, or null when nothing is. */
  pending: boolean | null;
  onChange: (optedIn: boolean) => void;
}) {
  const { t } = useTranslation('beta');
  const titleId = useId();
  const noteId = useId();
  const isOpen = feature.access === 'OPEN';
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-labelledby={titleId}
      sx={{ p: 3, height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={titleId} variant="h2" sx={{ fontSize: 18, mr: 1 }}>
          {feature.name}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={isOpen ? 'primary' : 'secondary'}
          label={t(`access.${feature.access}`)}
        />
      </Stack>
      <Typography color="text.secondary" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
        {feature.description}
      </Typography>
      {isOpen ? null : (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('invited')}
        </Typography>
      )}
      <Stack spacing={1.5} sx={{ mt: 'auto', pt: 2 }}>
        <FormControlLabel
          control={
            <Switch
              checked={pending ?? feature.optedIn}
              disabled={pending !== null}
              onChange={(event) => onChange(event.target.checked)}
              slotProps={feature.overriddenOff ? { input: { 'aria-describedby': noteId } } : {}}
            />
          }
          label={t('optIn', { name: feature.name })}
        />
        {feature.overriddenOff ? (
          <Alert id={noteId} severity="info">
            {t('overriddenOff', { name: feature.name })}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** A beta feature card's place while the list loads. */
export function BetaFeatureCardSkeleton() {
  return (
    <Paper variant="outlined" sx={{ p: 3 }} aria-hidden>
      <Skeleton variant="text" width="40%" height={32} />
      <Skeleton variant="text" />
      <Skeleton variant="text" width="80%" />
      <Skeleton variant="rounded" width={180} height={28} sx={{ mt: 2 }} />
    </Paper>
  );
}
