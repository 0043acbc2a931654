import MoreVertIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { TApplication } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
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
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = `actions-${application.id}`;
  const choose = (action: ApplicationAction) => {
    setAnchor(null);
    onAction(action);
  };
  return (
    <>
      <IconButton
        aria-label={t('table.actionsFor', { name: application.name })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('details')}>{t('actions.details')}</MenuItem>
        <MenuItem onClick={() => choose('edit')}>{t('actions.edit')}</MenuItem>
        <MenuItem onClick={() => choose('delete')} sx={{ color: 'error.main' }}>
          {t('actions.delete')}
        </MenuItem>
      </Menu>
    </>
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
    <Table stickyHeader size="medium">
      <Box component="caption" sx={visuallyHidden}>
        {t('table.caption')}
      </Box>
      <TableHead>
        <TableRow>
          <TableCell>{t('table.name')}</TableCell>
          <TableCell>{t('table.clientId')}</TableCell>
          <TableCell>{t('table.environment')}</TableCell>
          <TableCell>{t('table.networks')}</TableCell>
          <TableCell>{t('table.created')}</TableCell>
          <TableCell align="right">{t('table.actions')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {applications.map((application) => (
          <TableRow key={application.id} hover>
            <TableCell>
              <Link component="button" type="button" onClick={() => onAction(application, 'details')} underline="hover">
                {application.name}
              </Link>
            </TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <Box
                  component="code"
                  title={application.clientId}
                  sx={{ fontFamily: 'ui-monospace, Menlo, monospace' }}
                >
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
      </TableBody>
    </Table>
  );
}
