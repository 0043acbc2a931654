import { queryOptions } from '@tanstack/react-query';
import { ZFooter, type TFooter } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** `GET /api/connect/content/footer`: the footer links, already filtered by the account's features. */
export const footerQuery = () =>
  queryOptions({
    queryKey: ['connect', 'content', 'footer'],
    queryFn: ({ signal }): Promise<TFooter> => api.connect.get('/content/footer', { schema: ZFooter, signal }),
    // Footer content changes with a content edit, not during a session.
    staleTime: 60 * 60 * 1000,
  });
