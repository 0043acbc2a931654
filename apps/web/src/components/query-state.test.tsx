import { fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@connect/shared';
import { ApiError } from '../lib/api-client.ts';
import { initTestI18n, TestProviders } from '../test/render.tsx';
import { combineQueries, QueryError, QueryState, type QueryLike } from './query-state.tsx';

const loaded = <T,>(data: T): QueryLike<T> => ({ data, isError: false, error: null, refetch: vi.fn() });
const loading = <T,>(): QueryLike<T> => ({ data: undefined, isError: false, error: null, refetch: vi.fn() });
const failed = <T,>(error: Error = new ApiError(502, { detail: 'The service is away.' })): QueryLike<T> => ({
  data: undefined,
  isError: true,
  error,
  refetch: vi.fn(),
});

function renderState(query: QueryLike<string>, props: Partial<Parameters<typeof QueryState<string>>[0]> = {}) {
  return render(
    <TestProviders>
      <QueryState query={query} loading={<p aria-busy="true">Loading the part</p>} {...props}>
        {(data) => <p>Loaded: {data}</p>}
      </QueryState>
    </TestProviders>,
  );
}

beforeAll(() => {
  initTestI18n();
});

describe('QueryState', () => {
  it('shows the placeholder while loading, then the content with the data', () => {
    const { rerender } = renderState(loading());
    expect(screen.getByText('Loading the part')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    rerender(
      <TestProviders>
        <QueryState query={loaded('the data')} loading={<p>Loading the part</p>}>
          {(data) => <p>Loaded: {data}</p>}
        </QueryState>
      </TestProviders>,
    );
    expect(screen.getByText('Loaded: the data')).toBeInTheDocument();
    expect(screen.queryByText('Loading the part')).not.toBeInTheDocument();
  });

  it('shows a failed load as an alert with the spec §8 message and a retry that loads again', () => {
    const query = failed<string>();
    renderState(query);
    expect(screen.getByRole('alert')).toHaveTextContent('The service is away.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledOnce();
  });

  it('never shows the text of an error that is not an answer of the API', () => {
    renderState(failed(new TypeError('Cannot read properties of undefined')));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.generic);
  });

  it('takes the page’s own text, retry label and retry', () => {
    const onRetry = vi.fn();
    renderState(failed(), {
      errorMessage: (error) => `The list could not be loaded. ${error.message}`,
      retryLabel: 'Retry',
      onRetry,
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The list could not be loaded. The service is away.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows the error as a row inside a section, framed when asked', () => {
    renderState(failed(), {
      errorMessage: 'Your plan could not be loaded.',
      errorVariant: 'row',
      wrapError: (error) => <section aria-label="Frame">{error}</section>,
    });
    const frame = screen.getByRole('region', { name: 'Frame' });
    expect(frame).toContainElement(screen.getByRole('alert'));
    expect(screen.getByRole('alert')).toHaveTextContent('Your plan could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('keeps data on screen when a later refresh fails', () => {
    renderState({ ...loaded('kept'), isError: true, error: new ApiError(502, {}) });
    expect(screen.getByText('Loaded: kept')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('QueryError', () => {
  it('is an alert with its retry', () => {
    const onRetry = vi.fn();
    render(
      <TestProviders>
        <QueryError message="The mailbox could not be loaded." onRetry={onRetry} />
      </TestProviders>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The mailbox could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('combineQueries', () => {
  it('has data once both have loaded', () => {
    expect(combineQueries(loaded(1), loading<string>()).data).toBeUndefined();
    expect(combineQueries(loaded(1), loaded('a')).data).toEqual([1, 'a']);
  });

  it('fails with the first error and loads again only what failed', async () => {
    const first = loaded(1);
    const second = failed<string>();
    const both = combineQueries(first, second);
    expect(both.isError).toBe(true);
    expect(both.error).toBe(second.error);
    await both.refetch();
    expect(second.refetch).toHaveBeenCalledOnce();
    expect(first.refetch).not.toHaveBeenCalled();
  });
});
