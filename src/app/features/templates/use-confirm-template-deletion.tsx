import type { Template } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteTemplate } from './template-mutations';

/** Asks before deleting; the service refuses (409) while campaigns use the template, and says how many. */
export function useConfirmTemplateDeletion(onDeleted?: () => void) {
  const deletion = useDeleteTemplate();

  return useConfirmedMutation(deletion, (template: Pick<Template, 'uuid' | 'name'>) => ({
    title: 'Delete template',
    message: (
      <>
        Delete the template <strong>{template.name}</strong> and its links? This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete template',
    variables: template.uuid,
    success: `The template ${template.name} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The template ${template.name} could not be deleted`,
  }));
}
