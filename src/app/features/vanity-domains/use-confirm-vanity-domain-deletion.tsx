import type { VanityDomain } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteVanityDomain } from './vanity-domain-mutations';

/** Asks before deleting a domain; the service refuses (409) while links use it, and says so in a toast. */
export function useConfirmVanityDomainDeletion() {
  const deletion = useDeleteVanityDomain();

  return useConfirmAction((domain: Pick<VanityDomain, 'uuid' | 'domain'>) => ({
    title: 'Delete vanity domain',
    message: (
      <>
        Delete <strong>{domain.domain}</strong>? New links can no longer be made on it. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete domain',
    onConfirm: () =>
      deletion.mutate(domain.uuid, {
        onSuccess: () => notifySuccess(`The vanity domain ${domain.domain} was deleted.`),
        onError: (error) => notifyFailure(`The vanity domain ${domain.domain} could not be deleted`, error),
      }),
  }));
}
