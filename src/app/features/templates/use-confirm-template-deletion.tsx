import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Template } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteTemplate } from './template-mutations';

/** Asks before deleting; the service refuses (409) while campaigns use the template, and says how many. */
export function useConfirmTemplateDeletion(onDeleted?: () => void) {
  const deletion = useDeleteTemplate();

  return (template: Pick<Template, 'uuid' | 'name'>) =>
    modals.openConfirmModal({
      title: 'Delete template',
      children: (
        <Text size="sm">
          Delete the template <strong>{template.name}</strong> and its links? This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete template', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deletion.mutate(template.uuid, {
          onSuccess: () => {
            notifySuccess(`The template ${template.name} was deleted.`);
            onDeleted?.();
          },
          onError: (error) => notifyFailure(`The template ${template.name} could not be deleted`, error),
        }),
    });
}
