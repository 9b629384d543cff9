import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { SavedReply } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteSavedReply, useRenameSavedReply } from './inbox-mutations';

/** One saved reply: its name (or a field to rename it), its text, and rename and delete. */
function SavedReplyRow({
  reply,
  onDelete,
  renaming,
  onRenaming,
}: {
  reply: SavedReply;
  onDelete: (reply: SavedReply) => void;
  /** Whether this row's name is being edited (one row at a time). */
  renaming: boolean;
  onRenaming: (renaming: boolean) => void;
}) {
  const rename = useRenameSavedReply();
  const [draft, setDraft] = useState(reply.name);
  const name = renaming ? draft : null;
  const setName = (value: string | null) => {
    if (value !== null) setDraft(value);
    onRenaming(value !== null);
  };
  const save = () => {
    if (name === null || name.trim() === '') return;
    rename.mutate(
      { uuid: reply.uuid, name: name.trim() },
      {
        onSuccess: (renamed) => {
          notifySuccess(`Saved reply renamed to ${renamed.name}.`);
          setName(null);
        },
        onError: (error) => notifyFailure('The saved reply could not be renamed', error),
      },
    );
  };
  return (
    <Stack gap={4} component="li" style={{ listStyle: 'none' }}>
      {name === null ? (
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {reply.name}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Rename">
              <ActionIcon variant="subtle" aria-label={`Rename ${reply.name}`} onClick={() => setName(reply.name)}>
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${reply.name}`} onClick={() => onDelete(reply)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      ) : (
        <Group
          gap="xs"
          wrap="nowrap"
          align="flex-end"
          component="form"
          onSubmit={(event) => (event.preventDefault(), save())}
          aria-label={`Rename ${reply.name}`}
        >
          <TextInput
            label="New name"
            size="xs"
            style={{ flex: 1 }}
            value={name}
            data-autofocus
            autoFocus
            onChange={(event) => setName(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Escape leaves the rename, not the dialog (which does not close on Escape meanwhile).
              if (event.key === 'Escape') setName(null);
            }}
          />
          <ActionIcon type="submit" size="lg" aria-label="Save the name" loading={rename.isPending} disabled={name.trim() === ''}>
            <IconCheck size={16} />
          </ActionIcon>
          <ActionIcon variant="default" size="lg" aria-label="Cancel the rename" onClick={() => setName(null)}>
            <IconX size={16} />
          </ActionIcon>
        </Group>
      )}
      <Text size="xs" c="dimmed" lineClamp={2}>
        {reply.body}
      </Text>
    </Stack>
  );
}

/** "Manage saved replies": the team's saved replies in a dialog, each renamed or deleted in place. */
export function SavedRepliesManager({ savedReplies }: { savedReplies: readonly SavedReply[] }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const remove = useDeleteSavedReply();
  const confirmDelete = useConfirmedMutation(remove, (reply: SavedReply) => ({
    title: 'Delete this saved reply?',
    message: `“${reply.name}” is deleted for everyone in the team. Messages already sent with it stay as they are.`,
    confirmLabel: 'Delete saved reply',
    variables: reply.uuid,
    success: `The saved reply ${reply.name} was deleted.`,
    failure: `The saved reply ${reply.name} could not be deleted`,
  }));
  return (
    <>
      <Button variant="default" onClick={open}>
        Manage saved replies
      </Button>
      <Modal
        opened={opened}
        onClose={() => (setRenaming(null), close())}
        closeOnEscape={renaming === null}
        title="Saved replies"
        closeButtonProps={{ 'aria-label': 'Close saved replies' }}
      >
        {savedReplies.length === 0 ? (
          <Text size="sm">No saved replies yet: write a reply and save it from the composer.</Text>
        ) : (
          <Stack gap="md" component="ul" p={0} m={0} aria-label="Saved replies">
            {savedReplies.map((reply) => (
              <SavedReplyRow
                key={reply.uuid}
                reply={reply}
                onDelete={confirmDelete}
                renaming={renaming === reply.uuid}
                onRenaming={(on) => setRenaming(on ? reply.uuid : null)}
              />
            ))}
          </Stack>
        )}
      </Modal>
    </>
  );
}
