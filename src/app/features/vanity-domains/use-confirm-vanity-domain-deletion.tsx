import type { VanityDomain } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteVanityDomain } from './vanity-domain-mutations';

/** Asks before deleting a domain; the service refuses (409) while links use it, and says so in a toast. */
export function useConfirmVanityDomainDeletion() {
  const deletion = useDeleteVanityDomain();

  return useConfirmedMutation(deletion, (domain: Pick<VanityDomain, 'uuid' | 'domain'>) => ({
    title: 'Delete vanity domain',
    message: (
      <>
        Delete <strong>{domain.domain}</strong>? New links can no longer be made on it. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete domain',
    variables: domain.uuid,
    success: `The vanity domain ${domain.domain} was deleted.`,
    failure: `The vanity domain ${domain.domain} could not be deleted`,
  }));
}
