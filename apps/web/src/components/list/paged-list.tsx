import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { problemMessage } from '../../lib/problems.ts';
import { QueryState, type QueryLike } from '../query-state.tsx';

/**
 * The page header's counter of a quota-limited list ("1 / 3 applications"): its label names it
 * for screen readers with the figures; warning colour once the quota is used up.
 */
export function CounterChip({
  name,
  used,
  total,
  text,
  isWarning,
  testId,
}: {
  name: string;
  used: number;
  total: number | null;
  text: string;
  isWarning: boolean;
  testId: string;
}) {
  return (
    <Chip
      color={isWarning ? 'warning' : 'default'}
      variant="outlined"
      aria-label={`${name}: ${total === null ? used : `${used} / ${total}`}`}
      title={name}
      label={text}
      data-testid={testId}
    />
  );
}

/** The page header's actions of a list: its counters (a placeholder until loaded), then the create button. */
export function ListHeaderActions({
  counters,
  placeholderWidth,
  action,
}: {
  /** null while the list loads. */
  counters: ReactNode;
  placeholderWidth: number;
  action: ReactNode;
}) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
      {counters ?? <Skeleton variant="rounded" width={placeholderWidth} height={32} />}
      {action}
    </Stack>
  );
}

/**
 * An empty list: with filters set, says nothing matched and offers to clear them; otherwise the
 * first-use title, text and create button.
 */
export function EmptyList({
  icon,
  isFiltered,
  filteredText,
  clearLabel,
  onClear,
  title,
  body,
  action,
}: {
  icon: ReactNode;
  isFiltered: boolean;
  filteredText: string;
  clearLabel: string;
  onClear: () => void;
  title: string;
  body: string;
  action: ReactNode;
}) {
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2 }}>
      {icon}
      {isFiltered ? (
        <>
          <Typography sx={{ mt: 1 }}>{filteredText}</Typography>
          <Button sx={{ mt: 2 }} onClick={onClear}>
            {clearLabel}
          </Button>
        </>
      ) : (
        <>
          <Typography variant="h3" component="h2" sx={{ mt: 1, fontSize: 18 }}>
            {title}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
            {body}
          </Typography>
          {action}
        </>
      )}
    </Box>
  );
}

/**
 * The body of a paged list under its toolbar: placeholder rows while loading, the error with a
 * retry, `empty` when there is nothing, else the table and its pagination.
 */
export function PagedList<TPage extends { totalElements: number }>({
  query,
  retryLabel,
  loadErrorText,
  placeholderRowHeight,
  empty,
  children,
  page,
  size,
  pageSizes,
  rowsPerPageLabel,
  onPage,
  onSize,
}: {
  query: QueryLike<TPage>;
  retryLabel: string;
  loadErrorText: string;
  placeholderRowHeight: number;
  empty: ReactNode;
  children: (data: TPage) => ReactNode;
  page: number;
  size: number;
  pageSizes: readonly number[];
  rowsPerPageLabel: string;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}) {
  return (
    <QueryState
      query={query}
      loading={
        <Box sx={{ p: 2 }} aria-hidden>
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} variant="rounded" height={placeholderRowHeight} sx={{ mb: 1 }} />
          ))}
        </Box>
      }
      errorMessage={(error) => `${loadErrorText} ${problemMessage(error)}`}
      retryLabel={retryLabel}
      errorSx={{ m: 2 }}
    >
      {(data) =>
        data.totalElements === 0 ? (
          empty
        ) : (
          <>
            <TableContainer sx={{ maxHeight: 640 }}>{children(data)}</TableContainer>
            <TablePagination
              component="div"
              count={data.totalElements}
              page={page}
              rowsPerPage={size}
              rowsPerPageOptions={[...pageSizes]}
              labelRowsPerPage={rowsPerPageLabel}
              onPageChange={(_event, next) => onPage(next)}
              onRowsPerPageChange={(event) => onSize(Number(event.target.value))}
            />
          </>
        )
      }
    </QueryState>
  );
}
