import type { ApiToken } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useRevokeApiToken } from './api-token-mutations';

/** Asks before revoking: whatever uses the token stops working at once. */
export function useConfirmTokenRevocation() {
  const revocation = useRevokeApiToken();

  return useConfirmedMutation(revocation, (token: Pick<ApiToken, 'uuid' | 'name'>) => ({
    title: 'Revoke API token',
    message: (
      <>
        Revoke <strong>{token.name}</strong>? Every integration using it will be refused from now on. This cannot be undone.
      </>
    ),
    confirmLabel: 'Revoke token',
    variables: token.uuid,
    success: `The token ${token.name} was revoked.`,
    failure: `The token ${token.name} could not be revoked`,
  }));
}
