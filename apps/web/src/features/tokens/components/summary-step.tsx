import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TDeploymentType, TTierCard, TTokenForm, TTokenFormField, TTokenLocation } from '@connect/shared';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { SandboxChip } from './token-status-chip.tsx';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 14, wordBreak: 'break-all' };

/** Step 4: every choice again, each with an edit link back to its step (shared/UI.md). */
export function SummaryStep({
  location,
  tier,
  form,
  fields,
  deploymentType,
  credits,
  onEdit,
}: {
  location: TTokenLocation;
  tier: TTierCard;
  form: TTokenForm;
  fields: readonly TTokenFormField[];
  deploymentType: TDeploymentType;
  credits: number | null;
  onEdit: (step: 1 | 2) => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  const cost = deploymentType === 'QUANT' ? tier.deploymentCredits : tier.bytecodeCredits;

  const value = (field: TTokenFormField): ReactNode => {
    const raw = form[field];
    if (field === 'remintable') return raw ? t('stepper.summary.yes') : t('stepper.summary.no');
    if (field === 'maxSupply') return !raw ? t('stepper.summary.noLimit') : formatNumber(Number(raw));
    if (field === 'initialSupply' || field === 'decimal') return formatNumber(Number(raw ?? 0));
    if (field === 'supplyHolderAddress' || field === 'minter' || field === 'ownerAddress' || field === 'tokenUri') {
      return (
        <Box component="code" sx={mono}>
          {String(raw ?? '')}
        </Box>
      );
    }
    return String(raw ?? '');
  };

  const rows: { label: string; value: ReactNode; step: 1 | 2 }[] = [
    {
      label: t('stepper.summary.network'),
      value: (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <span>
            {location.network} · {location.technology}
          </span>
          {location.isLocal ? <SandboxChip /> : null}
        </Stack>
      ),
      step: 1,
    },
    { label: t('stepper.summary.tokenType'), value: t(`tokenType.${tier.tokenType}`), step: 1 },
    { label: t('stepper.summary.tier'), value: tier.name, step: 1 },
    ...fields.map((field) => ({ label: t(`stepper.details.fields.${field}`), value: value(field), step: 2 as const })),
    { label: t('stepper.summary.deployment'), value: t(`deploymentType.${deploymentType}`), step: 2 },
  ];

  return (
    <Stack spacing={2}>
      <Typography variant="h2" sx={{ fontSize: 20 }}>
        {t('stepper.summary.heading')}
      </Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '220px 1fr auto' },
          columnGap: 2,
          rowGap: 1.25,
          m: 0,
        }}
      >
        {rows.map((row) => (
          <Fragment key={row.label}>
            <Typography component="dt" color="text.secondary">
              {row.label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, minWidth: 0 }}>
              {row.value}
            </Typography>
            <Box component="dd" sx={{ m: 0, textAlign: { sm: 'right' } }}>
              <Link
                component="button"
                type="button"
                onClick={() => onEdit(row.step)}
                aria-label={t('stepper.summary.editLabel', { field: row.label })}
              >
                {t('stepper.summary.edit')}
              </Link>
            </Box>
          </Fragment>
        ))}
      </Box>
      <Divider />
      <Stack direction="row" spacing={2}>
        <Typography color="text.secondary" sx={{ width: 220 }}>
          {t('stepper.summary.cost')}
        </Typography>
        <Typography sx={{ fontWeight: 600 }}>
          {t('stepper.summary.costValue', {
            credits: formatNumber(cost ?? 0),
            available: credits === null ? '–' : formatNumber(credits),
          })}
        </Typography>
      </Stack>
    </Stack>
  );
}
