import { Button, Paper, Skeleton, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import type { SenderInput } from '../../../shared/contract';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { SenderForm } from '../../features/senders/sender-form';
import { useUpdateSender } from '../../features/senders/sender-mutations';
import { senderQueries } from '../../features/senders/sender-queries';
import { useConfirmSenderDeletion } from '../../features/senders/use-confirm-sender-deletion';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { params }: LoaderFunctionArgs) {
  if (params.uuid) void queryClient.prefetchQuery(senderQueries.detail(params.uuid));
}

export default function SenderEditPage() {
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const sender = useQuery(senderQueries.detail(uuid));
  const update = useUpdateSender(uuid);
  const backToList = () => void navigate(paths.senders.list.getHref());
  const confirmDeletion = useConfirmSenderDeletion(backToList);
  const canChange = useTeamRole().can('admin');

  const save = (input: SenderInput) =>
    update.mutateAsync(input, {
      onSuccess: (saved) => {
        notifySuccess(`The sender ${saved.sender} was saved.`);
        backToList();
      },
      onError: (error) => notifyFailure('The sender could not be saved', error),
    });

  return (
    <>
      <PageHeader
        title="Edit sender"
        description={sender.data && canChange ? `Changing ${sender.data.sender}.` : undefined}
        actions={
          sender.data &&
          canChange && (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => sender.data && confirmDeletion(sender.data)}>
              Delete
            </Button>
          )
        }
      />
      <RoleRequired needs="admin" subject="senders" back={{ href: paths.senders.list.getHref(), label: 'Back to senders' }}>
        {sender.isPending ? (
          <Paper withBorder p="lg" radius="md" aria-busy="true" aria-label="Loading">
            <Stack maw={480}>
              <Skeleton height={14} width="30%" />
              <Skeleton height={36} />
              <Skeleton height={36} width={120} />
            </Stack>
          </Paper>
        ) : sender.isError ? (
          <ErrorState title="The sender could not be loaded." error={sender.error} onRetry={() => void sender.refetch()} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <SenderForm
              key={sender.data.uuid}
              defaultValues={{ sender: sender.data.sender }}
              submitLabel="Save changes"
              onSubmit={save}
              onCancel={backToList}
            />
          </Paper>
        )}
      </RoleRequired>
    </>
  );
}
