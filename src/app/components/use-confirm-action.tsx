import { Text, type MantineColor } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { UseMutationResult } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { notifyFailure, notifySuccess } from '../lib/notify';

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
  /** The other answer: the cancel button, Escape or the close button (one answer per dialog). */
  onCancel?: () => void;
}

/**
 * Asks before a destructive action. `describe` words the dialog for one subject (a sender, a
 * token…); the returned function opens it, and nothing runs until the person confirms. The
 * function is the same on every render (it words the dialog with the latest `describe`), so an
 * effect may depend on it.
 */
export function useConfirmAction<TSubject = void>(describe: (subject: TSubject) => ConfirmActionOptions): (subject: TSubject) => void {
  const latest = useRef(describe);
  useEffect(() => {
    latest.current = describe;
  });
  return useCallback((subject: TSubject) => {
    const { title, message, confirmLabel, cancelLabel = 'Keep it', color = 'red', onConfirm, onCancel } = latest.current(subject);
    // One answer only: the dialog also closes (onClose) after either button.
    let answered = false;
    const answer = (action: (() => void) | undefined) => () => {
      if (answered) return;
      answered = true;
      action?.();
    };
    modals.openConfirmModal({
      title,
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: { color },
      onConfirm: answer(onConfirm),
      onCancel: answer(onCancel),
      onClose: answer(onCancel),
    });
  }, []);
}

/** A confirmation whose action is a call to the service: what to send, and what to say after. */
export interface ConfirmedMutationOptions<TData, TVariables> extends Omit<ConfirmActionOptions, 'onConfirm'> {
  /** What the mutation is called with once confirmed (the subject's uuid, a body). */
  variables: TVariables;
  /** The toast once it is done, e.g. "The sender AcmeShop was deleted."; none when absent. */
  success?: string | ((data: TData) => string);
  /** The failure toast's title, e.g. "The sender AcmeShop could not be deleted"; the service's sentence is its text. */
  failure: string;
  /** After the success toast: leave the deleted thing's page, show the new secret. */
  onSuccess?: (data: TData) => void;
}

/**
 * The dashboard's one confirm-then-call: asks with `describe(subject)`'s words, and only once confirmed
 * calls `mutation` with its `variables`, then says how it went (a success toast, or the service's
 * refusal under the `failure` title). Every destructive button of the dashboard goes through it.
 */
export function useConfirmedMutation<TSubject = void, TData = unknown, TVariables = void>(
  mutation: Pick<UseMutationResult<TData, unknown, TVariables, unknown>, 'mutate'>,
  describe: (subject: TSubject) => ConfirmedMutationOptions<TData, TVariables>,
): (subject: TSubject) => void {
  return useConfirmAction((subject: TSubject) => {
    const { variables, success, failure, onSuccess, ...wording } = describe(subject);
    return {
      ...wording,
      onConfirm: () =>
        mutation.mutate(variables, {
          onSuccess: (data) => {
            if (success !== undefined) notifySuccess(typeof success === 'function' ? success(data) : success);
            onSuccess?.(data);
          },
          onError: (error) => notifyFailure(failure, error),
        }),
    };
  });
}
