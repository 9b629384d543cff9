import { Paper } from '@mantine/core';
import { useNavigate } from 'react-router';
import type { SenderInput } from '../../../shared/contract';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { useCreateSender } from '../../features/senders/sender-mutations';
import { SenderForm } from '../../features/senders/sender-form';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';

export default function SenderNewPage() {
  const navigate = useNavigate();
  const creation = useCreateSender();

  const create = (input: SenderInput) =>
    creation.mutateAsync(input, {
      onSuccess: (sender) => {
        notifySuccess(`The sender ${sender.sender} was created.`);
        void navigate(paths.senders.list.getHref());
      },
      onError: (error) => notifyFailure('The sender could not be created', error),
    });

  return (
    <>
      <PageHeader title="New sender" description="Senders are shared by everyone in your team." />
      <RoleRequired needs="admin" subject="senders" back={{ href: paths.senders.list.getHref(), label: 'Back to senders' }}>
        <Paper withBorder p="lg" radius="md">
          <SenderForm submitLabel="Create sender" onSubmit={create} onCancel={() => void navigate(paths.senders.list.getHref())} />
        </Paper>
      </RoleRequired>
    </>
  );
}
