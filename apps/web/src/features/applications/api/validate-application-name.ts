import { useMutation } from '@tanstack/react-query';
import { ZValidateApplicationResponse, type TValidateApplicationRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** POST /validate: 200 when the name is free in the account; 409 with the spec's message when taken. */
export async function validateApplicationName(body: TValidateApplicationRequest): Promise<void> {
  await api.applicationManager.post('/validate', body, { schema: ZValidateApplicationResponse });
}

export function useValidateApplicationName() {
  return useMutation({ mutationFn: validateApplicationName });
}
