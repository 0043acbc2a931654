import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { TApplication } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ListTable, RowActionsMenu } from '../../../components/list/list-table.tsx';
import { formatDate } from '../../../lib/format.ts';
import { EnvironmentChip } from './environment-chip.tsx';

export type ApplicationAction = 'details' | 'edit' | 'delete';

/** `abcdef…wxyz`: identifiers shortened in the middle (shared/UI.md). */
export function shorten(value: string, keep = 6): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-4)}`;
}

function RowActions({
  application,
  onAction,
}: {
  application: TApplication;
  onAction: (a: ApplicationAction) => void;
}) {
  const { t } = useTranslation('applicationManager');
  return (
    <RowActionsMenu label={t('table.actionsFor', { name: application.name })} menuId={`actions-${application.id}`}>
      {(close) => {
        const choose = (action: ApplicationAction) => {
          close();
          onAction(action);
        };
        return [
          <MenuItem key="details" onClick={() => choose('details')}>
            {t('actions.details')}
          </MenuItem>,
          <MenuItem key="edit" onClick={() => choose('edit')}>
            {t('actions.edit')}
          </MenuItem>,
          <MenuItem key="delete" onClick={() => choose('delete')} sx={{ color: 'error.main' }}>
            {t('actions.delete')}
          </MenuItem>,
        ];
      }}
    </RowActionsMenu>
  );
}

/** The applications of one page; the name opens the details dialog, the menu has the rest. */
export function ApplicationsTable({
  applications,
  onAction,
}: {
  applications: TApplication[];
  onAction: (application: TApplication, action: ApplicationAction) => void;
}) {
  const { t } = useTranslation('applicationManager');
  return (
    <ListTable
      caption={t('table.caption')}
      columns={[t('table.name'), t('table.clientId'), t('table.environment'), t('table.networks'), t('table.created')]}
      actionsLabel={t('table.actions')}
    >
      {applications.map((application) => (
        <TableRow key={application.id} hover>
          <TableCell>
            <Link component="button" type="button" onClick={() => onAction(application, 'details')} underline="hover">
              {application.name}
            </Link>
          </TableCell>
          <TableCell>
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <Box component="code" title={application.clientId} sx={{ fontFamily: 'ui-monospace, Menlo, monospace' }}>
                {shorten(application.clientId)}
              </Box>
              <CopyButton value={application.clientId} label={`${t('copy.clientId')} (${application.name})`} />
            </Stack>
          </TableCell>
          <TableCell>
            <EnvironmentChip type={application.applicationType} />
          </TableCell>
          <TableCell>
            <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {application.networks.map((network) => (
                <Chip key={network.id} size="small" label={network.name} />
              ))}
            </Stack>
          </TableCell>
          <TableCell>{formatDate(application.createdAt)}</TableCell>
          <TableCell align="right">
            <RowActions application={application} onAction={(action) => onAction(application, action)} />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
