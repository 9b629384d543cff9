import type { ApiToken } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useRevokeApiToken } from './api-token-mutations';

/** Asks before revoking: whatever uses the token stops working at once. */
export function useConfirmTokenRevocation() {
  const revocation = useRevokeApiToken();

  return useConfirmAction((token: Pick<ApiToken, 'uuid' | 'name'>) => ({
    title: 'Revoke API token',
    message: (
      <>
        Revoke <strong>{token.name}</strong>? Every integration using it will be refused from now on. This cannot be undone.
      </>
    ),
    confirmLabel: 'Revoke token',
    onConfirm: () =>
      revocation.mutate(token.uuid, {
        onSuccess: () => notifySuccess(`The token ${token.name} was revoked.`),
        onError: (error) => notifyFailure(`The token ${token.name} could not be revoked`, error),
      }),
  }));
}
