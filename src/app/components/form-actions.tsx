import { Button, Group, type GroupProps } from '@mantine/core';

interface FormActionsProps extends Omit<GroupProps, 'children'> {
  /** The submit button's label, e.g. "Create sender". */
  submitLabel: string;
  /** While the form is being saved: the submit button spins and Cancel is disabled. */
  submitting: boolean;
  /** Shows a Cancel button beside the submit button when given. */
  onCancel?: () => void;
}

/** A form's submit button, then Cancel when the form can be left without saving. */
export function FormActions({ submitLabel, submitting, onCancel, ...groupProps }: FormActionsProps) {
  return (
    <Group gap="sm" {...groupProps}>
      <Button type="submit" loading={submitting}>
        {submitLabel}
      </Button>
      {onCancel && (
        <Button variant="default" onClick={onCancel} disabled={submitting}>
          Cancel
        </Button>
      )}
    </Group>
  );
}
