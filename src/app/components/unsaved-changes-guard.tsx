import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useContext, useEffect } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router';

/** Navigation state of a leave that is meant (after deleting what was edited): the guard lets it through. */
export const LEAVE_ON_PURPOSE = { leaveOnPurpose: true } as const;

const onPurpose = (state: unknown) => typeof state === 'object' && state !== null && (state as { leaveOnPurpose?: unknown }).leaveOnPurpose === true;

function LeaveDialog({ when, what }: { when: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname && !onPurpose(nextLocation.state),
  );
  const blocked = blocker.state === 'blocked';
  useEffect(() => {
    if (!blocked) return;
    // One answer only: the dialog closed by Escape or its close button stays on the page.
    let answered = false;
    const answer = (leave: boolean) => {
      if (answered) return;
      answered = true;
      if (leave) blocker.proceed?.();
      else blocker.reset?.();
    };
    modals.openConfirmModal({
      title: 'Leave without saving?',
      children: <Text size="sm">Your changes to {what} are not saved. If you leave now, they are lost.</Text>,
      labels: { confirm: 'Leave without saving', cancel: 'Stay on this page' },
      confirmProps: { color: 'red' },
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
      onClose: () => answer(false),
    });
  }, [blocked, blocker, what]);
  return null;
}

/**
 * Warns before unsaved changes are lost: a dialog when the dashboard navigates elsewhere (React
 * Router's blocker; only under a data router, as the app runs) and the browser's own question when
 * the tab is closed or reloaded (`beforeunload`).
 */
export function UnsavedChangesGuard({ when, what }: { when: boolean; what: string }) {
  const inDataRouter = useContext(UNSAFE_DataRouterContext) !== null;
  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);
  return inDataRouter ? <LeaveDialog when={when} what={what} /> : null;
}
