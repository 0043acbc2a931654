import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TToken } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ListTable, RowActionsMenu } from '../../../components/list/list-table.tsx';
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
  return (
    <RowActionsMenu label={t('table.actionsFor', { name: token.tokenName })} menuId={`token-actions-${token.id}`}>
      {(close) => [
        <MenuItem key="view" component={RouterLink} to={coinDetailsHref(token)}>
          {t('actions.view')}
        </MenuItem>,
        ...tokenActions(token).map((action) => (
          <MenuItem
            key={action}
            onClick={() => {
              close();
              onAction(action);
            }}
            sx={action === 'reactivate' ? undefined : { color: 'error.main' }}
          >
            {t(`actions.${action}`)}
          </MenuItem>
        )),
      ]}
    </RowActionsMenu>
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
    <ListTable
      caption={t('table.caption')}
      columns={[
        t('table.tokenName'),
        t('table.tokenUnit'),
        t('table.blockchain'),
        t('table.tokenType'),
        t('table.tierName'),
        t('table.status'),
      ]}
      actionsLabel={t('table.actions')}
    >
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
              {token.isLocal ? <SandboxChip /> : null}
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
    </ListTable>
  );
}

export { SandboxChip };
