import type { QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { FlowInput } from '../../../shared/contract';
import { PageHeader } from '../../components/page-header';
import { LEAVE_ON_PURPOSE } from '../../components/unsaved-changes-guard';
import { RoleRequired } from '../../features/auth/role-notice';
import { keepCreatedSecret } from '../../features/flows/created-secret';
import { FlowEditor } from '../../features/flows/flow-editor';
import { useCreateFlow } from '../../features/flows/flow-mutations';
import { notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchFlowPickers, useFlowPickers } from './use-flow-pickers';

export function prefetch(queryClient: QueryClient) {
  prefetchFlowPickers(queryClient);
}

export default function FlowNewPage() {
  const navigate = useNavigate();
  const creation = useCreateFlow();
  const { pickers, names } = useFlowPickers();

  // A rejection goes back to the editor, which shows a 422 at its fields.
  const create = async (input: FlowInput) => {
    const created = await creation.mutateAsync(input);
    keepCreatedSecret(created.uuid, created.signing_secret);
    notifySuccess(`The flow ${created.name} was created.`);
    void navigate(paths.flows.detail.getHref(created.uuid), { state: LEAVE_ON_PURPOSE });
  };

  return (
    <>
      <PageHeader
        title="New flow"
        description="Choose what starts it, then add its steps in order. Once it is saved and enabled, try it with your number on its page."
      />
      <RoleRequired needs="edit" back={{ href: paths.flows.list.getHref(), label: 'Back to flows' }}>
        <FlowEditor pickers={pickers} names={names} submitLabel="Create flow" onSubmit={create} onCancel={() => void navigate(paths.flows.list.getHref())} />
      </RoleRequired>
    </>
  );
}
