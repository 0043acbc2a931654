import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../lib/problems.ts';

/** What QueryState needs of a query; TanStack Query's result (or combineQueries') has it. */
export type QueryLike<T> = {
  data: T | undefined;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
};

/**
 * How a failed load looks: 'alert' (the default) is an error alert with the retry as its action;
 * 'row' is a line inside a card or section — an icon, the text and an outlined retry button.
 */
export type QueryErrorVariant = 'alert' | 'row';

/** A load that failed: what failed, and a retry that loads only that part again. */
export function QueryError({
  message,
  onRetry,
  retryLabel,
  variant = 'alert',
  sx,
}: {
  message: ReactNode;
  onRetry: () => void;
  /** Default: the common 'Try again'. */
  retryLabel?: string | undefined;
  variant?: QueryErrorVariant | undefined;
  sx?: SxProps<Theme> | undefined;
}) {
  const { t } = useTranslation('common');
  const label = retryLabel ?? t('actions.retry');
  if (variant === 'row') {
    return (
      <Box
        role="alert"
        sx={[
          { display: 'flex', alignItems: 'center', gap: 1.5, py: 2, flexWrap: 'wrap' },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      >
        <ErrorOutlineIcon color="error" aria-hidden />
        <Typography sx={{ flex: 1, minWidth: 160 }}>{message}</Typography>
        <Button variant="outlined" size="small" onClick={onRetry}>
          {label}
        </Button>
      </Box>
    );
  }
  return (
    <Alert
      severity="error"
      {...(sx ? { sx } : {})}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {label}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}

/**
 * The three states of a part of a page that loads: its `loading` placeholder, the error with a
 * retry, or `children` with the data. Data once loaded stays on screen when a later refresh
 * fails, so a page the user is working on is never swapped for an error.
 */
export function QueryState<T>({
  query,
  loading,
  errorMessage = problemMessage,
  retryLabel,
  onRetry,
  errorVariant,
  errorSx,
  wrapError = (error) => error,
  children,
}: {
  query: QueryLike<T>;
  loading: ReactNode;
  /** The error's text: fixed, or from the error (default: spec §8's message of the error). */
  errorMessage?: ReactNode | ((error: Error) => ReactNode);
  retryLabel?: string;
  /** Default: the query's refetch. */
  onRetry?: () => void;
  errorVariant?: QueryErrorVariant;
  errorSx?: SxProps<Theme>;
  /** Puts the error in a frame of its own (a card, where the loaded content brings its own). */
  wrapError?: (error: ReactNode) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return children(query.data);
  if (query.isError && query.error) {
    return wrapError(
      <QueryError
        message={typeof errorMessage === 'function' ? errorMessage(query.error) : errorMessage}
        onRetry={onRetry ?? (() => void query.refetch())}
        retryLabel={retryLabel}
        variant={errorVariant}
        sx={errorSx}
      />,
    );
  }
  return loading;
}

/**
 * Several queries as one for QueryState: the data once all have loaded, the first error, and a
 * retry that loads again only the ones that failed (a query that worked is not asked twice: the
 * authenticator set-up, for one, would hand out a new secret).
 */
export function combineQueries<A, B>(a: QueryLike<A>, b: QueryLike<B>): QueryLike<[A, B]> {
  const queries = [a, b];
  return {
    data: a.data !== undefined && b.data !== undefined ? [a.data, b.data] : undefined,
    isError: a.isError || b.isError,
    error: a.error ?? b.error,
    refetch: () => Promise.all(queries.filter((query) => query.isError).map((query) => query.refetch())),
  };
}
