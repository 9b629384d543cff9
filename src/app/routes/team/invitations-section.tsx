import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { InvitationInput } from '../../../shared/contract';
import type { Invitation } from '../../api/gen/types.gen';
import { ErrorState } from '../../components/error-state';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { InvitationForm } from '../../features/team/invitation-form';
import { InvitationSentNotice } from '../../features/team/invitation-sent-notice';
import { INVITATION_COLUMNS, InvitationsTable } from '../../features/team/invitations-table';
import { useCreateInvitation } from '../../features/team/team-mutations';
import { teamQueries } from '../../features/team/team-queries';
import { useConfirmInvitationWithdrawal } from '../../features/team/use-confirm-invitation-withdrawal';
import { isApiError } from '../../api/api-error';
import { notifyFailure } from '../../lib/notify';
import { PER_PAGE_DEFAULT } from '../../../shared/contract/page-size';

/** Admins only: invite by e-mail, and the invitations not yet accepted. The members' list keeps the page's URL. */
export function InvitationsSection() {
  const [{ page, perPage }, setPaging] = useState({ page: 1, perPage: PER_PAGE_DEFAULT });
  const invitations = useQuery(teamQueries.invitations({ page, per_page: perPage }));
  const creation = useCreateInvitation();
  const confirmWithdrawal = useConfirmInvitationWithdrawal();
  const [sent, setSent] = useState<Invitation | null>(null);

  const invite = (input: InvitationInput) =>
    creation.mutateAsync(input, {
      onSuccess: setSent,
      onError: (error) => {
        // A 422 on a field (e.g. already a member) shows on that field, not in a toast.
        if (!(isApiError(error) && error.status === 422 && Object.keys(error.fieldErrors).length > 0)) notifyFailure('The invitation could not be sent', error);
      },
    });

  return (
    <section aria-labelledby="invitations-title">
      <Title order={2} size="h4" mb="sm" id="invitations-title">
        Invitations
      </Title>
      <Stack gap="md">
        <Paper withBorder p="lg" radius="md">
          <Text size="sm" c="dimmed" mb="md">
            Herald e-mails a link to join the team. Someone new chooses a name and a password; someone with an account joins with it.
          </Text>
          <InvitationForm onSubmit={invite} />
        </Paper>
        {sent && <InvitationSentNotice invitation={sent} onDismiss={() => setSent(null)} />}
        {invitations.isPending ? (
          <TableSkeleton columns={INVITATION_COLUMNS} rows={1} />
        ) : invitations.isError ? (
          <ErrorState title="The invitations could not be loaded." error={invitations.error} onRetry={() => void invitations.refetch()} />
        ) : invitations.data.meta.total === 0 ? (
          <Text size="sm" c="dimmed">
            No invitations are waiting to be accepted.
          </Text>
        ) : (
          <div>
            <InvitationsTable invitations={invitations.data.data} onWithdraw={confirmWithdrawal} />
            {invitations.data.meta.last_page > 1 && (
              <PaginationBar
                meta={invitations.data.meta}
                perPage={perPage}
                onPageChange={(next) => setPaging({ page: next, perPage })}
                onPerPageChange={(next) => setPaging({ page: 1, perPage: next })}
                noun={{ one: 'invitation', other: 'invitations' }}
              />
            )}
          </div>
        )}
      </Stack>
    </section>
  );
}
