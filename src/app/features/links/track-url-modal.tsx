import { Modal, Text } from '@mantine/core';
import { SHORT_CODE_LENGTH, type LinkInput } from '../../../shared/contract';
import { suggestLinkName, type PlainUrl } from '../../../shared/sms';
import { ApiError } from '../../api/api-error';
import type { VanityDomain } from '../../api/gen/types.gen';
import { LinkForm } from './link-form';

interface TrackUrlModalProps {
  /** The address to track; the modal is closed while null. */
  url: PlainUrl | null;
  templateUuid: string;
  vanityDomains: readonly VanityDomain[];
  /** Names the template's links already have, so the suggested one is new. */
  takenNames: readonly string[];
  /** The link to add when the template is saved, with a sample short link: the caller puts `::name::` where the address was. */
  onTracked: (url: PlainUrl, link: LinkInput & { shortLink: string }) => void;
  onClose: () => void;
}

/**
 * Makes a tracked link of an address typed into the body, its name suggested from the address. The
 * link is created with the template's next save, not here: an edit left unsaved leaves no link behind.
 */
export function TrackUrlModal({ url, templateUuid, vanityDomains, takenNames, onTracked, onClose }: TrackUrlModalProps) {
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
            in the message; each recipient gets their own short link to it. The link is added when you save the template.
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
            onSubmit={(input) => {
              if (takenNames.some((name) => name.toLowerCase() === input.name.toLowerCase()))
                return Promise.reject(new ApiError(422, 'The given data was invalid.', { name: ['The template already has a link of this name.'] }));
              const base = vanityDomains.find((domain) => domain.uuid === input.vanity_domain_uuid)?.url_base ?? `${window.location.origin}/l`;
              onTracked(url, { ...input, shortLink: `${base}/${'x'.repeat(SHORT_CODE_LENGTH)}` });
              return Promise.resolve();
            }}
            onCancel={onClose}
          />
        </>
      )}
    </Modal>
  );
}
