import { Anchor, Breadcrumbs, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import type { FlowInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import type { Flow } from '../../api/gen/types.gen';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { SigningSecretNotice } from '../../components/signing-secret-notice';
import { LEAVE_ON_PURPOSE } from '../../components/unsaved-changes-guard';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { takeCreatedSecret } from '../../features/flows/created-secret';
import { flowDraft } from '../../features/flows/flow-draft';
import { FlowEditor } from '../../features/flows/flow-editor';
import { triggerSentence } from '../../features/flows/flow-labels';
import { useUpdateFlow } from '../../features/flows/flow-mutations';
import { flowQueries } from '../../features/flows/flow-queries';
import { FlowRunList } from '../../features/flows/flow-runs';
import { FlowTestRun } from '../../features/flows/flow-test-run';
import { useConfirmFlowDeletion } from '../../features/flows/use-confirm-flow-deletion';
import { notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchFlowPickers, useFlowPickers } from './use-flow-pickers';

export function prefetch(queryClient: QueryClient, { params }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  void queryClient.prefetchQuery(flowQueries.detail(params.uuid));
  void queryClient.prefetchQuery(flowQueries.runs(params.uuid));
  prefetchFlowPickers(queryClient);
}

function FlowBreadcrumbs({ current }: { current: string }) {
  return (
    <Breadcrumbs mb="xs" styles={{ root: { flexWrap: 'wrap' }, breadcrumb: { overflowWrap: 'anywhere' } }}>
      <Anchor component={Link} to={paths.flows.list.getHref()} size="sm">
        Flows
      </Anchor>
      <Text size="sm">{current}</Text>
    </Breadcrumbs>
  );
}

/** A flow: its step editor with each step's counts, the test with your number, and its runs. */
export default function FlowPage() {
  const { uuid = '' } = useParams();
  // While runs are under way the steps' counts move: read them again every few seconds.
  const flow = useQuery({ ...flowQueries.detail(uuid), refetchInterval: (query) => (query.state.data?.runs.active ? 5_000 : false) });
  if (flow.isPending) {
    return (
      <>
        <FlowBreadcrumbs current="Flow" />
        <PageHeader title="Flow" />
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={120} radius="md" />
          <Skeleton height={240} radius="md" />
        </Stack>
      </>
    );
  }
  if (flow.isError) {
    const notFound = isApiError(flow.error) && flow.error.status === 404;
    return (
      <>
        <FlowBreadcrumbs current="Flow" />
        <PageHeader title="Flow" />
        <ErrorState title="The flow could not be loaded." error={flow.error} onRetry={() => void flow.refetch()} />
        {notFound && (
          <Text size="sm" mt="md">
            If a link brought you here, the flow may belong to another of your teams: choose that team in the header and open the link again.
          </Text>
        )}
      </>
    );
  }
  return <FlowView flow={flow.data} />;
}

function FlowView({ flow }: { flow: Flow }) {
  const navigate = useNavigate();
  const canEdit = useTeamRole().can('edit');
  const update = useUpdateFlow();
  const { pickers, names, loading } = useFlowPickers();
  const [secret, setSecret] = useState(() => takeCreatedSecret(flow.uuid));
  const confirmDeletion = useConfirmFlowDeletion(() => void navigate(paths.flows.list.getHref(), { state: LEAVE_ON_PURPOSE }));
  const defaultValue = useMemo(() => flowDraft(flow), [flow]);

  // A rejection goes back to the editor, which shows a 422 at its fields.
  const save = async (input: FlowInput) => {
    const saved = await update.mutateAsync({ uuid: flow.uuid, patch: input });
    notifySuccess(`The flow ${saved.name} was saved.`);
  };

  return (
    <>
      <FlowBreadcrumbs current={flow.name} />
      <PageHeader
        title={flow.name}
        description={`${triggerSentence(flow.trigger, names)}. ${flow.runs.active} active, ${flow.runs.completed} completed and ${flow.runs.exited} exited runs.`}
        actions={
          canEdit && (
            <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDeletion(flow)}>
              Delete flow
            </Button>
          )
        }
      />
      <RoleNotice needs="edit" subject="flows" />
      <Stack gap="xl">
        {secret && <SigningSecretNotice title={`Flow “${flow.name}” created`} secret={secret} onDismiss={() => setSecret(null)} />}
        {loading ? (
          <Skeleton height={240} radius="md" aria-label="Loading the flow’s keywords, groups, segments and templates" />
        ) : (
          // Keyed by the saved version: a save starts the editor again from what was stored (new steps now have ids and counts).
          <FlowEditor
            key={flow.updated_at}
            defaultValue={defaultValue}
            pickers={pickers}
            names={names}
            liveSteps={flow.steps}
            submitLabel="Save flow"
            onSubmit={save}
            readOnly={!canEdit}
          />
        )}
        {canEdit && (
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="flow-test">
            <Stack gap="xs">
              <Title order={2} size="h4" id="flow-test">
                Test with my number
              </Title>
              <FlowTestRun flowUuid={flow.uuid} />
            </Stack>
          </Paper>
        )}
        <FlowRuns flow={flow} />
      </Stack>
    </>
  );
}

function FlowRuns({ flow }: { flow: Flow }) {
  // A test run is not in the flow's counts (`runs`): the list's own active runs keep it fresh too.
  const runs = useQuery({
    ...flowQueries.runs(flow.uuid),
    refetchInterval: (query) => (flow.runs.active > 0 || query.state.data?.data.some((run) => run.state === 'active') ? 5_000 : false),
  });
  return (
    <Stack component="section" aria-labelledby="flow-runs" gap="xs">
      <Title order={2} size="h4" id="flow-runs">
        Runs
      </Title>
      <Text size="sm" c="dimmed">
        The newest runs first; open one for the steps it went through.
      </Text>
      {runs.isPending ? (
        <Skeleton height={80} radius="md" />
      ) : runs.isError ? (
        <ErrorState title="The flow’s runs could not be loaded." error={runs.error} onRetry={() => void runs.refetch()} />
      ) : runs.data.meta.total === 0 ? (
        <Paper withBorder radius="md" p="md">
          <Text size="sm" c="dimmed">
            No run yet. A run starts when the trigger happens for a number, or with the test above.
          </Text>
        </Paper>
      ) : (
        <FlowRunList runs={runs.data.data} steps={flow.steps} show="number" />
      )}
    </Stack>
  );
}
