import { Text, type MantineColor } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

export interface ConfirmActionOptions {
  /** The dialog's title, which is also its accessible name. */
  title: string;
  /** What happens, naming the thing it happens to; shown as one small paragraph. */
  message: ReactNode;
  /** The confirm button's label, e.g. "Delete sender". */
  confirmLabel: string;
  /** The button that closes the dialog and does nothing. */
  cancelLabel?: string;
  /** The confirm button's colour: red for what cannot be undone. */
  color?: MantineColor;
  /** The action itself: runs only once the confirm button is pressed. */
  onConfirm: () => void;
}

/**
 * Asks before a destructive action. `describe` words the dialog for one subject (a sender, a
 * token…); the returned function opens it, and nothing runs until the person confirms.
 */
export function useConfirmAction<TSubject = void>(describe: (subject: TSubject) => ConfirmActionOptions): (subject: TSubject) => void {
  return (subject) => {
    const { title, message, confirmLabel, cancelLabel = 'Keep it', color = 'red', onConfirm } = describe(subject);
    modals.openConfirmModal({
      title,
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: { color },
      onConfirm,
    });
  };
}
