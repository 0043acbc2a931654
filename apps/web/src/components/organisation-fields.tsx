import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import type { Control } from 'react-hook-form';
import type { TCompanyDetailsRequest } from '@connect/shared';
import { useOrganisationStaticData } from '../lib/organisations/organisations-api.ts';
import { problemMessage } from '../lib/problems.ts';
import { FormTextField } from './form-text-field.tsx';
import { OrganisationNameField } from './organisation-name-field.tsx';
import { QueryError } from './query-state.tsx';

/** A select's place while its options load (the height of an outlined field). */
export function SelectSkeleton({ label }: { label: string }) {
  return <Skeleton variant="rounded" height={56} role="progressbar" aria-label={label} />;
}

/**
 * The four organisation fields (company name, location, industry, size) as grid items, for every
 * form that edits them (the /user-details profile and the profile page's business details). The
 * company name suggests registered organisations; the lists come from GET /static-data/organisations.
 */
export function OrganisationFields<T extends TCompanyDetailsRequest>({ control }: { control: Control<T> }) {
  const { t } = useTranslation('account');
  const staticData = useOrganisationStaticData();
  // The fields exist on every form that uses this component; react-hook-form's generic paths
  // cannot see that through `T extends ...`, so the control is narrowed once here.
  const fields = control as unknown as Control<TCompanyDetailsRequest>;
  const lists = staticData.data;
  return (
    <>
      <Grid size={{ xs: 12, sm: 6 }}>
        <OrganisationNameField control={fields} />
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
      {staticData.isError && !lists ? (
        <Grid size={12}>
          <QueryError
            variant="row"
            message={problemMessage(staticData.error)}
            onRetry={() => void staticData.refetch()}
          />
        </Grid>
      ) : (
        <>
          <Grid size={{ xs: 12, sm: 6 }}>
            {lists ? (
              <FormTextField control={fields} name="industry" label={t('fields.industry')} select required>
                {lists.industries.map((industry) => (
                  <MenuItem key={industry} value={industry}>
                    {t(`options.industries.${industry}`, { defaultValue: industry })}
                  </MenuItem>
                ))}
              </FormTextField>
            ) : (
              <SelectSkeleton label={t('staticData.loading', { field: t('fields.industry') })} />
            )}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {lists ? (
              <FormTextField control={fields} name="companySize" label={t('fields.companySize')} select required>
                {lists.companySizes.map((size) => (
                  <MenuItem key={size} value={size}>
                    {t(`options.companySizes.${size}`)}
                  </MenuItem>
                ))}
              </FormTextField>
            ) : (
              <SelectSkeleton label={t('staticData.loading', { field: t('fields.companySize') })} />
            )}
          </Grid>
        </>
      )}
    </>
  );
}
