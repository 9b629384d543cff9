import type { Invitation } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useWithdrawInvitation } from './team-mutations';

/** Asks before withdrawing an invitation: its link stops working. */
export function useConfirmInvitationWithdrawal() {
  const withdrawal = useWithdrawInvitation();

  return useConfirmedMutation(withdrawal, (invitation: Pick<Invitation, 'uuid' | 'email'>) => ({
    title: 'Withdraw invitation',
    message: (
      <>
        Withdraw the invitation sent to <strong>{invitation.email}</strong>? The link in the e-mail stops working at once.
      </>
    ),
    confirmLabel: 'Withdraw invitation',
    variables: invitation.uuid,
    success: `The invitation to ${invitation.email} was withdrawn.`,
    failure: `The invitation to ${invitation.email} could not be withdrawn`,
  }));
}
