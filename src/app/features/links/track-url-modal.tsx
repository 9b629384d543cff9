import { Modal, Text } from '@mantine/core';
import { suggestLinkName, type PlainUrl } from '../../../shared/sms';
import type { VanityDomain } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { LinkForm } from './link-form';
import { useCreateLink } from './link-mutations';

interface TrackUrlModalProps {
  /** The address to track; the modal is closed while null. */
  url: PlainUrl | null;
  templateUuid: string;
  vanityDomains: readonly VanityDomain[];
  /** Names the template's links already have, so the suggested one is new. */
  takenNames: readonly string[];
  /** The link exists: the caller puts `::name::` where the address was. */
  onTracked: (url: PlainUrl, name: string) => void;
  onClose: () => void;
}

/** Adds a tracked link for an address typed into the body, its name suggested from the address. */
export function TrackUrlModal({ url, templateUuid, vanityDomains, takenNames, onTracked, onClose }: TrackUrlModalProps) {
  const creation = useCreateLink();
  const defaultDomain = vanityDomains.find((domain) => domain.is_default) ?? vanityDomains[0];
  return (
    <Modal opened={url !== null} onClose={onClose} title="Track this link" size="lg">
      {url !== null && (
        <>
          <Text size="sm" mb="md">
            The address becomes{' '}
            <Text span ff="monospace">
              ::NAME::
            </Text>{' '}
            in the message; each recipient gets their own short link to it. Save the template afterwards to keep the change.
          </Text>
          <LinkForm
            key={url.text}
            defaultValues={{
              template_uuid: templateUuid,
              vanity_domain_uuid: defaultDomain?.uuid ?? '',
              name: suggestLinkName(url.destination, takenNames),
              destination: url.destination,
            }}
            vanityDomains={vanityDomains}
            submitLabel="Add link and use it"
            onSubmit={(input) =>
              creation.mutateAsync(input, {
                onSuccess: (created) => {
                  notifySuccess(`The link ${created.name} was added and put in the message.`);
                  onTracked(url, created.name);
                },
                onError: (error) => notifyFailure('The link could not be added', error),
              })
            }
            onCancel={onClose}
          />
        </>
      )}
    </Modal>
  );
}
