import AddIcon from '@mui/icons-material/Add';
import TokenOutlinedIcon from '@mui/icons-material/TokenOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import { TOKEN_PAGE_SIZES, type TToken, type TTokensRequest } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useDeleteToken } from '../api/delete-token.ts';
import { useTokens } from '../api/get-tokens.ts';
import { useUpdateToken } from '../api/update-token.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { TokensTable, type TokenAction } from '../components/tokens-table.tsx';
import { isFiltered, NO_FILTERS, TokensToolbar, type TokenFilters } from '../components/tokens-toolbar.tsx';
import { UseCaseTiles } from '../components/use-case-tiles.tsx';
import { tokenPaths } from '../token-paths.ts';

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

function TableSkeleton() {
  return (
    <Box sx={{ p: 2 }} aria-hidden>
      {[0, 1, 2, 3].map((row) => (
        <Skeleton key={row} variant="rounded" height={44} sx={{ mb: 1 }} />
      ))}
    </Box>
  );
}

/** Token Flow, "My smart tokens" (spec §2.5): counter, use-case tiles, search and filters, table, paging. */
export function TokenFlowPage() {
  const { t } = useTranslation('quantPortfolio');
  const snackbar = useSnackbar();
  const [searchParams] = useSearchParams();
  const [filters, setFilters] = useState<TokenFilters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(10);
  const [open, setOpen] = useState<{ token: TToken; action: TokenAction } | null>(null);
  const search = useDebounced(filters.search.trim(), 300);

  const request: TTokensRequest = {
    page,
    size,
    search: search || undefined,
    blockchain: filters.blockchain || undefined,
    tokenType: filters.tokenType || undefined,
    tierType: filters.tierType || undefined,
    status: filters.status || undefined,
  };
  const tokens = useTokens(request);
  const updateToken = useUpdateToken();
  const deleteToken = useDeleteToken();

  // A filter change starts again from the first page.
  useEffect(() => setPage(0), [search, filters.blockchain, filters.tokenType, filters.tierType, filters.status, size]);

  const quota = tokens.data?.quota;
  const isQuotaReached = quota ? quota.allowed !== null && quota.allowed - quota.deployed <= 0 : false;
  // The creation guard sends a user without quota back here (spec §5) and says why.
  const isSentBack = searchParams.get('notice') === 'quota';

  const createButton = (
    <Button
      component={RouterLink}
      to={tokenPaths.create()}
      variant="contained"
      startIcon={<AddIcon />}
      disabled={!quota || isQuotaReached}
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
    >
      {t('list.create')}
    </Button>
  );

  const closeDialog = () => {
    updateToken.reset();
    deleteToken.reset();
    setOpen(null);
  };
  const handleConfirm = () => {
    if (!open) return;
    const { token, action } = open;
    if (action === 'delete') {
      deleteToken.mutate(token.externalId, {
        onSuccess: () => {
          snackbar.show({ title: t('deleted', { name: token.tokenName }) });
          setOpen(null);
        },
      });
      return;
    }
    updateToken.mutate(
      { id: token.id, status: action === 'deprecate' ? 'DEPRECATED' : 'ACTIVE' },
      {
        onSuccess: () => {
          snackbar.show({ title: t('updated') });
          setOpen(null);
        },
      },
    );
  };

  return (
    <Page
      title={t('list.title')}
      description={t('list.description')}
      actions={
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          {quota && tokens.data ? (
            <>
              <Chip
                variant="outlined"
                label={t('list.credits', { credits: formatNumber(tokens.data.credits) })}
                title={t('list.creditsLabel')}
                aria-label={`${t('list.creditsLabel')}: ${formatNumber(tokens.data.credits)}`}
              />
              <Chip
                color={isQuotaReached ? 'warning' : 'default'}
                variant="outlined"
                title={t('list.counterLabel')}
                aria-label={`${t('list.counterLabel')}: ${quota.allowed === null ? quota.deployed : `${quota.deployed} / ${quota.allowed}`}`}
                label={
                  quota.allowed === null
                    ? t('list.counterUnlimited', { deployed: formatNumber(quota.deployed) })
                    : t('list.counter', {
                        deployed: formatNumber(quota.deployed),
                        allowed: formatNumber(quota.allowed),
                      })
                }
                data-testid="tokens-counter"
              />
            </>
          ) : (
            <Skeleton variant="rounded" width={160} height={32} />
          )}
          {createButton}
        </Stack>
      }
    >
      {isQuotaReached || isSentBack ? (
        <Alert
          severity={isSentBack ? 'warning' : 'info'}
          sx={{ mb: 2 }}
          action={
            <Button component={RouterLink} to={paths.accountPlanUpgrade} color="inherit" size="small">
              {t('list.upgrade')}
            </Button>
          }
        >
          {t('list.quotaReached')}
        </Alert>
      ) : null}
      <UseCaseTiles />
      <Paper variant="outlined">
        <TokensToolbar filters={filters} blockchains={tokens.data?.blockchains ?? []} onChange={setFilters} />
        {tokens.isPending ? (
          <TableSkeleton />
        ) : tokens.isError ? (
          <Alert
            severity="error"
            sx={{ m: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => void tokens.refetch()}>
                {t('actions.retry')}
              </Button>
            }
          >
            {t('list.loadError')} {tokens.error.message}
          </Alert>
        ) : tokens.data.totalElements === 0 ? (
          <Box sx={{ textAlign: 'center', py: 6, px: 2 }}>
            <TokenOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
            {isFiltered(filters) ? (
              <>
                <Typography sx={{ mt: 1 }}>{t('empty.filtered')}</Typography>
                <Button sx={{ mt: 2 }} onClick={() => setFilters(NO_FILTERS)}>
                  {t('empty.clear')}
                </Button>
              </>
            ) : (
              <>
                <Typography variant="h3" component="h2" sx={{ mt: 1, fontSize: 18 }}>
                  {t('empty.title')}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
                  {t('empty.body')}
                </Typography>
                {createButton}
              </>
            )}
          </Box>
        ) : (
          <>
            <TableContainer sx={{ maxHeight: 640 }}>
              <TokensTable tokens={tokens.data.content} onAction={(token, action) => setOpen({ token, action })} />
            </TableContainer>
            <TablePagination
              component="div"
              count={tokens.data.totalElements}
              page={page}
              rowsPerPage={size}
              rowsPerPageOptions={[...TOKEN_PAGE_SIZES]}
              labelRowsPerPage={t('table.rowsPerPage')}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => setSize(Number(event.target.value))}
            />
          </>
        )}
      </Paper>
      {open ? (
        <ConfirmDialog
          open
          title={t(`${open.action === 'delete' ? 'deleteDialog' : 'deprecateDialog'}.title`, {
            name: open.token.tokenName,
          })}
          confirmLabel={
            open.action === 'reactivate'
              ? t('actions.reactivate')
              : t(`${open.action === 'delete' ? 'deleteDialog' : 'deprecateDialog'}.confirm`)
          }
          isDestructive
          isPending={updateToken.isPending || deleteToken.isPending}
          error={(updateToken.error ?? deleteToken.error)?.message ?? null}
          onConfirm={handleConfirm}
          onClose={closeDialog}
        >
          {t(`${open.action === 'delete' ? 'deleteDialog' : 'deprecateDialog'}.body`, {
            name: open.token.tokenName,
            unit: open.token.tokenUnit,
          })}
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
