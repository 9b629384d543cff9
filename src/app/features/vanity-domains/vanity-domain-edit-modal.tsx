import { Modal } from '@mantine/core';
import type { VanityDomain } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useUpdateVanityDomain } from './vanity-domain-mutations';
import { VanityDomainForm } from './vanity-domain-form';

interface VanityDomainEditModalProps {
  /** The domain being edited; null when the modal is closed. */
  domain: VanityDomain | null;
  onClose: () => void;
}

export function VanityDomainEditModal({ domain, onClose }: VanityDomainEditModalProps) {
  const update = useUpdateVanityDomain();
  return (
    <Modal opened={domain !== null} onClose={onClose} title="Edit vanity domain" size="lg">
      {domain && (
        <VanityDomainForm
          key={domain.uuid}
          defaultValues={{ domain: domain.domain }}
          submitLabel="Save changes"
          onCancel={onClose}
          onSubmit={(input) =>
            update.mutateAsync(
              { uuid: domain.uuid, input },
              {
                onSuccess: (saved) => {
                  notifySuccess(`The vanity domain ${saved.domain} was saved.`);
                  onClose();
                },
                onError: (error) => notifyFailure('The vanity domain could not be saved', error),
              },
            )
          }
        />
      )}
    </Modal>
  );
}
