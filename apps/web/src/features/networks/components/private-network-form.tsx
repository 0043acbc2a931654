import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  NODE_TYPES,
  PRIVATE_NETWORK_ENVIRONMENTS,
  PRIVATE_NETWORK_LIMITS,
  type TPrivateNetworkForm,
} from '@connect/shared';
import { FormTextField } from '../../../components/form-text-field.tsx';

/** The fields of the private network stepper's "Network details" step (spec §3 Private network). */
export function PrivateNetworkFields({ control }: { control: Control<TPrivateNetworkForm> }) {
  const { t } = useTranslation('integrate');
  return (
    <Grid container spacing={2.5}>
      <Grid size={{ xs: 12, md: 8 }}>
        <FormTextField
          control={control}
          name="name"
          label={t('private.fields.name')}
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: PRIVATE_NETWORK_LIMITS.nameMax + 10 } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <Controller
          control={control}
          name="networkType"
          render={({ field, fieldState }) => (
            <FormControl error={Boolean(fieldState.error)} required>
              <FormLabel id="private-network-type-label">{t('private.fields.networkType')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="private-network-type-label"
                name={field.name}
                value={field.value ?? ''}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
              >
                {PRIVATE_NETWORK_ENVIRONMENTS.map((environment) => (
                  <FormControlLabel
                    key={environment}
                    value={environment}
                    control={
                      <Radio slotProps={{ input: { ref: environment === 'production' ? field.ref : undefined } }} />
                    }
                    label={t(`private.fields.${environment}`)}
                  />
                ))}
              </RadioGroup>
              {fieldState.error ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
            </FormControl>
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <FormTextField
          control={control}
          name="url"
          label={t('private.fields.url')}
          helperText={t('private.fields.urlHelp')}
          required
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'url', spellCheck: false } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={control}
          name="chainId"
          label={t('private.fields.chainId')}
          required
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={control}
          name="tokenSymbol"
          label={t('private.fields.tokenSymbol')}
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: PRIVATE_NETWORK_LIMITS.tokenSymbolMax + 5 } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={control}
          name="tokenDecimals"
          label={t('private.fields.tokenDecimals')}
          required
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={control}
          name="numberOfBlocks"
          label={t('private.fields.numberOfBlocks')}
          required
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField control={control} name="nodeType" label={t('private.fields.nodeType')} select required fullWidth>
          {NODE_TYPES.map((nodeType) => (
            <MenuItem key={nodeType} value={nodeType}>
              {t(`private.fields.${nodeType}`)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <Controller
          control={control}
          name="eip1559"
          render={({ field, fieldState }) => (
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    name={field.name}
                    checked={Boolean(field.value)}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{ input: { ref: field.ref, 'aria-describedby': 'private-eip1559-error' } }}
                  />
                }
                label={t('private.fields.eip1559')}
              />
              <FormHelperText id="private-eip1559-error" error={Boolean(fieldState.error)}>
                {fieldState.error?.message ?? ''}
              </FormHelperText>
            </Box>
          )}
        />
      </Grid>
    </Grid>
  );
}
