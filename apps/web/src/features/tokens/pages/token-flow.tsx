import AddIcon from '@mui/icons-material/Add';
import TokenOutlinedIcon from '@mui/icons-material/TokenOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import { TOKEN_PAGE_SIZES, type TToken, type TTokensRequest } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { CounterChip, EmptyList, ListHeaderActions, PagedList } from '../../../components/list/paged-list.tsx';
import { Page } from '../../../components/page.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { useDeleteToken } from '../api/delete-token.ts';
import { useTokens } from '../api/get-tokens.ts';
import { useUpdateToken } from '../api/update-token.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { TokensTable, type TokenAction } from '../components/tokens-table.tsx';
import { isFiltered, NO_FILTERS, TokensToolbar, type TokenFilters } from '../components/tokens-toolbar.tsx';
import { UseCaseTiles } from '../components/use-case-tiles.tsx';
import { tokenPaths } from '../token-paths.ts';

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
        <ListHeaderActions
          counters={
            quota && tokens.data ? (
              <>
                <Chip
                  variant="outlined"
                  label={t('list.credits', { credits: formatNumber(tokens.data.credits) })}
                  title={t('list.creditsLabel')}
                  aria-label={`${t('list.creditsLabel')}: ${formatNumber(tokens.data.credits)}`}
                />
                <CounterChip
                  name={t('list.counterLabel')}
                  used={quota.deployed}
                  total={quota.allowed}
                  text={
                    quota.allowed === null
                      ? t('list.counterUnlimited', { deployed: formatNumber(quota.deployed) })
                      : t('list.counter', {
                          deployed: formatNumber(quota.deployed),
                          allowed: formatNumber(quota.allowed),
                        })
                  }
                  isWarning={isQuotaReached}
                  testId="tokens-counter"
                />
              </>
            ) : null
          }
          placeholderWidth={160}
          action={createButton}
        />
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
        <PagedList
          query={tokens}
          retryLabel={t('actions.retry')}
          loadErrorText={t('list.loadError')}
          placeholderRowHeight={44}
          empty={
            <EmptyList
              icon={<TokenOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />}
              isFiltered={isFiltered(filters)}
              filteredText={t('empty.filtered')}
              clearLabel={t('empty.clear')}
              onClear={() => setFilters(NO_FILTERS)}
              title={t('empty.title')}
              body={t('empty.body')}
              action={createButton}
            />
          }
          page={page}
          size={size}
          pageSizes={TOKEN_PAGE_SIZES}
          rowsPerPageLabel={t('table.rowsPerPage')}
          onPage={setPage}
          onSize={setSize}
        >
          {(data) => <TokensTable tokens={data.content} onAction={(token, action) => setOpen({ token, action })} />}
        </PagedList>
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
          {t(
            // A wallet deployment left unsent keeps its credits when deleted: its bytecode was
            // handed out when it was created (docs/decisions/tokens-and-chains.md "Credits, money columns and numbers").
            open.action === 'delete' && open.token.deploymentType === 'META_MASK' && open.token.status === 'PENDING'
              ? 'deleteDialog.bodyWallet'
              : `${open.action === 'delete' ? 'deleteDialog' : 'deprecateDialog'}.body`,
            {
              name: open.token.tokenName,
              unit: open.token.tokenUnit,
              credits: open.token.creditsCharged,
            },
          )}
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
