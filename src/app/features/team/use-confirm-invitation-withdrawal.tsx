import type { Invitation } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useWithdrawInvitation } from './team-mutations';

/** Asks before withdrawing an invitation: its link stops working. */
export function useConfirmInvitationWithdrawal() {
  const withdrawal = useWithdrawInvitation();

  return useConfirmAction((invitation: Pick<Invitation, 'uuid' | 'email'>) => ({
    title: 'Withdraw invitation',
    message: (
      <>
        Withdraw the invitation sent to <strong>{invitation.email}</strong>? The link in the e-mail stops working at once.
      </>
    ),
    confirmLabel: 'Withdraw invitation',
    onConfirm: () =>
      withdrawal.mutate(invitation.uuid, {
        onSuccess: () => notifySuccess(`The invitation to ${invitation.email} was withdrawn.`),
        onError: (error) => notifyFailure(`The invitation to ${invitation.email} could not be withdrawn`, error),
      }),
  }));
}
