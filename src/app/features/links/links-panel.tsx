import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconLink, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { LinkInput } from '../../../shared/contract';
import type { Link, VanityDomain } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { TableSkeleton } from '../../components/table-skeleton';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { LinkForm } from './link-form';
import { useCreateLink, useUpdateLink } from './link-mutations';
import { linkQueries } from './link-queries';
import { LINK_COLUMNS, LinksTable } from './links-table';
import { useConfirmLinkDeletion } from './use-confirm-link-deletion';

interface LinksPanelProps {
  templateUuid: string;
  vanityDomains: readonly VanityDomain[];
  /** The template is locked: links cannot change either. */
  readOnly?: boolean;
  /** False when the role may not change links: no way to add, edit or delete them is shown. */
  editable?: boolean;
}

/** The tracked links of one template: what its `::NAME::` shorthands become. */
export function LinksPanel({ templateUuid, vanityDomains, readOnly, editable = true }: LinksPanelProps) {
  const links = useQuery(linkQueries.ofTemplate(templateUuid));
  const creation = useCreateLink();
  const update = useUpdateLink();
  const confirmDeletion = useConfirmLinkDeletion();
  // 'new' while adding, the link while editing, null when the modal is closed.
  const [editing, setEditing] = useState<Link | 'new' | null>(null);
  const close = () => setEditing(null);
  const defaultDomain = vanityDomains.find((domain) => domain.is_default) ?? vanityDomains[0];

  const save = (input: LinkInput) =>
    editing === 'new' || editing === null
      ? creation.mutateAsync(input, {
          onSuccess: (created) => {
            notifySuccess(`The link ${created.name} was added.`);
            close();
          },
          onError: (error) => notifyFailure('The link could not be added', error),
        })
      : update.mutateAsync(
          { uuid: editing.uuid, input },
          {
            onSuccess: (saved) => {
              notifySuccess(`The link ${saved.name} was saved.`);
              close();
            },
            onError: (error) => notifyFailure('The link could not be saved', error),
          },
        );

  const addButton = (
    <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} disabled={readOnly}>
      Add link
    </Button>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <div>
          <Title order={2} size="h4">
            Links
          </Title>
          <Text size="sm" c="dimmed">
            Each recipient gets their own short link, so clicks are counted per contact.
          </Text>
        </div>
        {editable && addButton}
      </Group>
      {links.isPending ? (
        <TableSkeleton columns={LINK_COLUMNS} rows={2} />
      ) : links.isError ? (
        <ErrorState title="The links could not be loaded." error={links.error} onRetry={() => void links.refetch()} />
      ) : links.data.length === 0 ? (
        <EmptyPanel
          icon={<IconLink />}
          title="No links yet"
          description={editable ? 'Add a link, then put ::NAME:: in the message where it goes.' : 'This template has no tracked links.'}
        />
      ) : (
        <LinksTable
          links={links.data}
          vanityDomains={vanityDomains}
          readOnly={readOnly}
          actions={editable ? { onEdit: setEditing, onDelete: confirmDeletion } : undefined}
        />
      )}
      <Modal opened={editing !== null} onClose={close} title={editing === 'new' ? 'Add link' : 'Edit link'} size="lg">
        {editing !== null && (
          <LinkForm
            key={editing === 'new' ? 'new' : editing.uuid}
            defaultValues={
              editing === 'new'
                ? { template_uuid: templateUuid, vanity_domain_uuid: defaultDomain?.uuid ?? '', name: '', destination: '' }
                : { template_uuid: templateUuid, vanity_domain_uuid: editing.vanity_domain_uuid, name: editing.name, destination: editing.destination }
            }
            vanityDomains={vanityDomains}
            submitLabel={editing === 'new' ? 'Add link' : 'Save changes'}
            onSubmit={save}
            onCancel={close}
          />
        )}
      </Modal>
    </Stack>
  );
}
