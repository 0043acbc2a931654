import { useSearchParams } from 'react-router';
import { ZEmail } from '@connect/shared';

/** The `email` query parameter when it is a valid address; pages ask for it otherwise. */
export function useEmailParam(): string | undefined {
  const [searchParams] = useSearchParams();
  const parsed = ZEmail.safeParse(searchParams.get('email') ?? '');
  return parsed.success ? parsed.data : undefined;
}
