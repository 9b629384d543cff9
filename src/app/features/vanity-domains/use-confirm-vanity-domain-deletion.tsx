import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { VanityDomain } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteVanityDomain } from './vanity-domain-mutations';

/** Asks before deleting a domain; the service refuses (409) while links use it, and says so in a toast. */
export function useConfirmVanityDomainDeletion() {
  const deletion = useDeleteVanityDomain();

  return (domain: Pick<VanityDomain, 'uuid' | 'domain'>) =>
    modals.openConfirmModal({
      title: 'Delete vanity domain',
      children: (
        <Text size="sm">
          Delete <strong>{domain.domain}</strong>? New links can no longer be made on it. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete domain', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deletion.mutate(domain.uuid, {
          onSuccess: () => notifySuccess(`The vanity domain ${domain.domain} was deleted.`),
          onError: (error) => notifyFailure(`The vanity domain ${domain.domain} could not be deleted`, error),
        }),
    });
}
