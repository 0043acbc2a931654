import MoreVertIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
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
import Typography from '@mui/material/Typography';
import type { TToken } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { coinDetailsHref } from '../token-paths.ts';
import { SandboxChip, TokenStatusChip } from './token-status-chip.tsx';

export type TokenAction = 'deprecate' | 'reactivate' | 'delete';

/**
 * Which row actions a token has besides View details: deprecate an active one, reactivate a
 * deprecated one, delete one whose deployment was never sent (a wallet deployment left unsent, or
 * one that failed before reaching the chain).
 */
export function tokenActions(token: TToken): TokenAction[] {
  if (token.status === 'ACTIVE') return ['deprecate'];
  if (token.status === 'DEPRECATED') return ['reactivate'];
  const isUnsent = token.transactionId === null;
  if (isUnsent && (token.status === 'FAILED' || (token.status === 'PENDING' && token.deploymentType === 'META_MASK'))) {
    return ['delete'];
  }
  return [];
}

function RowActions({ token, onAction }: { token: TToken; onAction: (action: TokenAction) => void }) {
  const { t } = useTranslation('quantPortfolio');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = `token-actions-${token.id}`;
  const choose = (action: TokenAction) => {
    setAnchor(null);
    onAction(action);
  };
  return (
    <>
      <IconButton
        aria-label={t('table.actionsFor', { name: token.tokenName })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem component={RouterLink} to={coinDetailsHref(token)}>
          {t('actions.view')}
        </MenuItem>
        {tokenActions(token).map((action) => (
          <MenuItem
            key={action}
            onClick={() => choose(action)}
            sx={action === 'reactivate' ? undefined : { color: 'error.main' }}
          >
            {t(`actions.${action}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** The tokens of one page: columns tokenName, tokenUnit, blockchain, tokenType, tierName, status, actions (spec §2.5). */
export function TokensTable({
  tokens,
  onAction,
}: {
  tokens: TToken[];
  onAction: (token: TToken, action: TokenAction) => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <Table stickyHeader>
      <Box component="caption" sx={visuallyHidden}>
        {t('table.caption')}
      </Box>
      <TableHead>
        <TableRow>
          <TableCell>{t('table.tokenName')}</TableCell>
          <TableCell>{t('table.tokenUnit')}</TableCell>
          <TableCell>{t('table.blockchain')}</TableCell>
          <TableCell>{t('table.tokenType')}</TableCell>
          <TableCell>{t('table.tierName')}</TableCell>
          <TableCell>{t('table.status')}</TableCell>
          <TableCell align="right">{t('table.actions')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {tokens.map((token) => (
          <TableRow key={token.id} hover>
            <TableCell>
              <Link component={RouterLink} to={coinDetailsHref(token)} underline="hover" sx={{ fontWeight: 600 }}>
                {token.tokenName}
              </Link>
            </TableCell>
            <TableCell>
              <Box component="code" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>
                {token.tokenUnit}
              </Box>
            </TableCell>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box>
                  <Typography variant="body2">{token.blockchain}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {token.network}
                  </Typography>
                </Box>
              </Stack>
            </TableCell>
            <TableCell>{t(`tokenType.${token.tokenType}`)}</TableCell>
            <TableCell>{token.tierName}</TableCell>
            <TableCell>
              <TokenStatusChip status={token.status} />
            </TableCell>
            <TableCell align="right">
              <RowActions token={token} onAction={(action) => onAction(token, action)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export { SandboxChip };
