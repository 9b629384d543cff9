import type { Template } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteTemplate } from './template-mutations';

/** Asks before deleting; the service refuses (409) while campaigns use the template, and says how many. */
export function useConfirmTemplateDeletion(onDeleted?: () => void) {
  const deletion = useDeleteTemplate();

  return useConfirmAction((template: Pick<Template, 'uuid' | 'name'>) => ({
    title: 'Delete template',
    message: (
      <>
        Delete the template <strong>{template.name}</strong> and its links? This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete template',
    onConfirm: () =>
      deletion.mutate(template.uuid, {
        onSuccess: () => {
          notifySuccess(`The template ${template.name} was deleted.`);
          onDeleted?.();
        },
        onError: (error) => notifyFailure(`The template ${template.name} could not be deleted`, error),
      }),
  }));
}
