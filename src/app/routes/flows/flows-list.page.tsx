import { Button, List, Stack, Text } from '@mantine/core';
import { IconGitBranch, IconPlus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { flowQueries } from '../../features/flows/flow-queries';
import { FLOW_COLUMNS, FlowsTable } from '../../features/flows/flows-table';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';
import { prefetchFlowPickers, useFlowPickers } from './use-flow-pickers';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(flowQueries.list({ page, per_page: perPage }));
  prefetchFlowPickers(queryClient);
}

/** The team's flows: what starts each, whether it is on, and its runs by state. */
export default function FlowsListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const flows = useQuery(flowQueries.list({ page, per_page: perPage }));
  const { names } = useFlowPickers();
  const canEdit = useTeamRole().can('edit');

  const newFlowButton = canEdit && (
    <Button component={Link} to={paths.flows.new.getHref()} leftSection={<IconPlus size={16} />}>
      New flow
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Flows"
        description="Automations that walk one number through steps: a welcome series when someone texts JOIN, a follow-up to those who did not click, a birthday message."
        actions={newFlowButton}
      />
      <RoleNotice needs="edit" subject="flows" />
      <Stack gap="lg">
        {flows.isPending ? (
          <TableSkeleton columns={FLOW_COLUMNS} rows={3} />
        ) : flows.isError ? (
          <ErrorState title="The flows could not be loaded." error={flows.error} onRetry={() => void flows.refetch()} />
        ) : flows.data.meta.total === 0 ? (
          <EmptyPanel
            icon={<IconGitBranch />}
            title="No flows yet"
            description={
              <Stack gap="xs" align="center">
                <Text size="sm" c="dimmed" ta="center">
                  A flow starts for one number when something happens, and then does its steps for that number, one after the other:
                </Text>
                <List size="sm" c="dimmed" ta="left">
                  <List.Item>a trigger: a keyword texted, a group joined, a segment entered, a conversion, a birthday, an API call;</List.Item>
                  <List.Item>steps: send a template, wait, branch on a condition (clicked, replied, a field), add to a group, call a webhook.</List.Item>
                </List>
                {!canEdit && (
                  <Text size="sm" c="dimmed" ta="center">
                    Flows an editor adds show here.
                  </Text>
                )}
              </Stack>
            }
            action={newFlowButton}
          />
        ) : (
          <div>
            <FlowsTable flows={flows.data.data} names={names} busy={flows.isPlaceholderData} />
            <PaginationBar
              meta={flows.data.meta}
              perPage={perPage}
              onPageChange={setPage}
              onPerPageChange={setPerPage}
              noun={{ one: 'flow', other: 'flows' }}
            />
          </div>
        )}
      </Stack>
    </>
  );
}
