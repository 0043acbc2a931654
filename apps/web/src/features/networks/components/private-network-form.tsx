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
import type { InputHTMLAttributes } from 'react';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  NODE_TYPES,
  PRIVATE_NETWORK_ENVIRONMENTS,
  PRIVATE_NETWORK_LIMITS,
  type TPrivateNetworkForm,
} from '@connect/shared';
import { FormTextField } from '../../../components/form-text-field.tsx';

const NUMERIC_INPUT = { inputMode: 'numeric' } as const;
const URL_INPUT = { inputMode: 'url', spellCheck: false } as const;

/** A required text field of the form in its grid cell, labelled by its name (`private.fields.<name>`). */
function TextCell({
  control,
  name,
  md,
  helperText,
  htmlInput,
}: {
  control: Control<TPrivateNetworkForm>;
  name: 'name' | 'url' | 'chainId' | 'tokenSymbol' | 'tokenDecimals' | 'numberOfBlocks';
  md: number;
  helperText?: string;
  htmlInput: InputHTMLAttributes<HTMLInputElement>;
}) {
  const { t } = useTranslation('integrate');
  return (
    <Grid size={{ xs: 12, md }}>
      <FormTextField
        control={control}
        name={name}
        label={t(`private.fields.${name}`)}
        helperText={helperText}
        required
        fullWidth
        slotProps={{ htmlInput }}
      />
    </Grid>
  );
}

/** The fields of the private network stepper's "Network details" step (spec §3 Private network). */
export function PrivateNetworkFields({ control }: { control: Control<TPrivateNetworkForm> }) {
  const { t } = useTranslation('integrate');
  return (
    <Grid container spacing={2.5}>
      <TextCell control={control} name="name" md={8} htmlInput={{ maxLength: PRIVATE_NETWORK_LIMITS.nameMax + 10 }} />
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
      <TextCell control={control} name="url" md={8} helperText={t('private.fields.urlHelp')} htmlInput={URL_INPUT} />
      <TextCell control={control} name="chainId" md={4} htmlInput={NUMERIC_INPUT} />
      <TextCell
        control={control}
        name="tokenSymbol"
        md={4}
        htmlInput={{ maxLength: PRIVATE_NETWORK_LIMITS.tokenSymbolMax + 5 }}
      />
      <TextCell control={control} name="tokenDecimals" md={4} htmlInput={NUMERIC_INPUT} />
      <TextCell control={control} name="numberOfBlocks" md={4} htmlInput={NUMERIC_INPUT} />
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
