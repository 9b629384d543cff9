import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ApiToken } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useRevokeApiToken } from './api-token-mutations';

/** Asks before revoking: whatever uses the token stops working at once. */
export function useConfirmTokenRevocation() {
  const revocation = useRevokeApiToken();

  return (token: Pick<ApiToken, 'uuid' | 'name'>) =>
    modals.openConfirmModal({
      title: 'Revoke API token',
      children: (
        <Text size="sm">
          Revoke <strong>{token.name}</strong>? Every integration using it will be refused from now on. This cannot be
          undone.
        </Text>
      ),
      labels: { confirm: 'Revoke token', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revocation.mutate(token.uuid, {
          onSuccess: () => notifySuccess(`The token ${token.name} was revoked.`),
          onError: (error) => notifyFailure(`The token ${token.name} could not be revoked`, error),
        }),
    });
}
