import { useSearchParams } from 'react-router';
import { ZEmailMini } from '@connect/shared/mini';

/** The `email` query parameter when it is a valid address; pages ask for it otherwise. */
export function useEmailParam(): string | undefined {
  const [searchParams] = useSearchParams();
  const parsed = ZEmailMini.safeParse(searchParams.get('email') ?? '');
  return parsed.success ? parsed.data : undefined;
}
