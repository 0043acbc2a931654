import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TUsageReportQuery } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../../components/list/list-toolbar.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { downloadUsageCsv } from '../api/download-usage-csv.ts';
import { USAGE_PERIODS, type UsagePeriod } from '../utils/periods.ts';

/** The page's one toolbar: the period, the application, and the CSV of exactly what is shown. */
export function UsageToolbar({
  period,
  onPeriod,
  applicationId,
  onApplication,
  applications,
  query,
}: {
  period: UsagePeriod;
  onPeriod: (period: UsagePeriod) => void;
  applicationId: string;
  onApplication: (applicationId: string) => void;
  applications: { id: string; name: string }[];
  query: TUsageReportQuery;
}) {
  const { t } = useTranslation('usage');
  const snackbar = useSnackbar();
  const [isDownloading, setIsDownloading] = useState(false);

  const handleDownload = async () => {
    setIsDownloading(true);
    try {
      await downloadUsageCsv(query);
    } catch (error) {
      snackbar.show({
        type: 'error',
        title: t('toolbar.downloadFailed'),
        ...(error instanceof Error ? { description: error.message } : {}),
      });
    } finally {
      setIsDownloading(false);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-label={t('toolbar.label')} sx={{ p: 2, mb: 3 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <TextField
          select
          label={t('toolbar.period')}
          value={period}
          onChange={(event) => onPeriod(event.target.value as UsagePeriod)}
          size="small"
          sx={{ width: { md: 240 } }}
        >
          {USAGE_PERIODS.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`toolbar.periods.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ width: { md: 280 } }}>
          <FilterSelect
            label={t('toolbar.application')}
            value={applicationId}
            onChange={onApplication}
            allLabel={t('toolbar.allApplications')}
            options={applications.map((application) => ({ value: application.id, label: application.name }))}
            minWidth={200}
          />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {t('toolbar.utc')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlinedIcon />}
          onClick={() => void handleDownload()}
          loading={isDownloading}
          loadingPosition="start"
        >
          {t('toolbar.download')}
        </Button>
      </Stack>
    </Paper>
  );
}
