import { useContext, useEffect } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router';
import { useConfirmAction } from './use-confirm-action';

/** Navigation state of a leave that is meant (after deleting what was edited): the guard lets it through. */
export const LEAVE_ON_PURPOSE = { leaveOnPurpose: true } as const;

const onPurpose = (state: unknown) => typeof state === 'object' && state !== null && (state as { leaveOnPurpose?: unknown }).leaveOnPurpose === true;

function LeaveDialog({ when, what }: { when: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname && !onPurpose(nextLocation.state),
  );
  const blocked = blocker.state === 'blocked';
  const confirmLeave = useConfirmAction(() => ({
    title: 'Leave without saving?',
    message: `Your changes to ${what} are not saved. If you leave now, they are lost.`,
    confirmLabel: 'Leave without saving',
    cancelLabel: 'Stay on this page',
    // Escape or the close button stays on the page, as the cancel button does.
    onConfirm: () => blocker.proceed?.(),
    onCancel: () => blocker.reset?.(),
  }));
  // Once per blocked navigation (confirmLeave is the same function on every render).
  useEffect(() => {
    if (blocked) confirmLeave();
  }, [blocked, confirmLeave]);
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
