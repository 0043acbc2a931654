import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import type { Control } from 'react-hook-form';
import { COMPANY_SIZES, INDUSTRIES, type TCompanyDetailsRequest } from '@connect/shared';
import { FormTextField } from './form-text-field.tsx';

/**
 * The four organisation fields (company name, location, industry, size) as grid items, for every
 * form that edits them (the /user-details profile and the profile page's business details).
 */
export function OrganisationFields<T extends TCompanyDetailsRequest>({ control }: { control: Control<T> }) {
  const { t } = useTranslation('account');
  // The fields exist on every form that uses this component; react-hook-form's generic paths
  // cannot see that through `T extends ...`, so the control is narrowed once here.
  const fields = control as unknown as Control<TCompanyDetailsRequest>;
  return (
    <>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={fields}
          name="organisationName"
          label={t('fields.organisationName')}
          autoComplete="organization"
          required
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={fields}
          name="organisationLocation"
          label={t('fields.organisationLocation')}
          autoComplete="country-name"
          required
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={fields} name="industry" label={t('fields.industry')} select required>
          {INDUSTRIES.map((industry) => (
            <MenuItem key={industry} value={industry}>
              {t(`options.industries.${industry}`, { defaultValue: industry })}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={fields} name="companySize" label={t('fields.companySize')} select required>
          {COMPANY_SIZES.map((size) => (
            <MenuItem key={size} value={size}>
              {t(`options.companySizes.${size}`)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
    </>
  );
}
