import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import type { TApplicationNetwork } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';

/** The networks an application may use, with "Select all" (spec §2.5 edit dialog). */
export function NetworkChecklist({
  networks,
  value,
  onChange,
  error,
  disabled = false,
}: {
  networks: TApplicationNetwork[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation('applicationManager');
  const errorId = useId();
  // One plan, one figure: the gateway's limit is the same on each network of the account.
  const rateLimit = networks[0]?.rateLimit;
  const selected = new Set(value);
  const allSelected = networks.length > 0 && networks.every((n) => selected.has(n.id));
  const someSelected = networks.some((n) => selected.has(n.id));

  const handleToggle = (id: string) => onChange(selected.has(id) ? value.filter((v) => v !== id) : [...value, id]);

  return (
    <FormControl component="fieldset" error={Boolean(error)} disabled={disabled} fullWidth>
      <FormLabel component="legend">{t('fields.networks')}</FormLabel>
      {rateLimit === undefined ? null : (
        <Typography variant="body2" color="text.secondary">
          {t('networks.rateLimitNote', { count: rateLimit, value: formatNumber(rateLimit) })}
        </Typography>
      )}
      <FormGroup aria-describedby={error ? errorId : undefined}>
        <FormControlLabel
          control={
            <Checkbox
              checked={allSelected}
              indeterminate={someSelected && !allSelected}
              onChange={() => onChange(allSelected ? [] : networks.map((n) => n.id))}
            />
          }
          label={t('fields.selectAll')}
        />
        <Divider />
        {networks.map((network) => (
          <FormControlLabel
            key={network.id}
            control={<Checkbox checked={selected.has(network.id)} onChange={() => handleToggle(network.id)} />}
            label={
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', py: 0.5 }}>
                <span>{network.name}</span>
                <Typography component="span" variant="body2" color="text.secondary">
                  {network.technology} · {t('networks.rateLimit', { value: formatNumber(network.rateLimit) })}
                </Typography>
                {network.isLocal ? <Chip size="small" label={t('networks.sandbox')} /> : null}
              </Box>
            }
          />
        ))}
      </FormGroup>
      {error ? <FormHelperText id={errorId}>{error}</FormHelperText> : null}
    </FormControl>
  );
}
