import { Anchor, Breadcrumbs, Button, Grid, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconTrash, IconUsers } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import type { SegmentInput } from '../../../shared/contract/segments';
import { isApiError } from '../../api/api-error';
import type { Segment } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { LEAVE_ON_PURPOSE } from '../../components/unsaved-changes-guard';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { SegmentConditions } from '../../features/segments/segment-conditions';
import { SEGMENT_CONTACT_COLUMNS, SegmentContactsTable } from '../../features/segments/segment-contacts-table';
import { SegmentForm } from '../../features/segments/segment-form';
import { segmentFormValues } from '../../features/segments/segment-form-values';
import { SegmentCountPanel, SegmentLiveCount } from '../../features/segments/segment-live-count';
import { useUpdateSegment } from '../../features/segments/segment-mutations';
import { segmentQueries } from '../../features/segments/segment-queries';
import { SegmentRevenueCard } from '../../features/segments/segment-revenue-card';
import { useConfirmSegmentDeletion } from '../../features/segments/use-confirm-segment-deletion';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';
import { prefetchSegmentFormData, useSegmentFormData } from './use-segment-form-data';

export function prefetch(queryClient: QueryClient, { params, request }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(segmentQueries.detail(params.uuid));
  void queryClient.prefetchQuery(segmentQueries.contacts(params.uuid, { page, per_page: perPage }));
  void queryClient.prefetchQuery(segmentQueries.revenue(params.uuid));
  prefetchSegmentFormData(queryClient);
}

function SegmentBreadcrumbs({ current }: { current: string }) {
  return (
    <Breadcrumbs mb="xs" styles={{ root: { flexWrap: 'wrap' }, breadcrumb: { overflowWrap: 'anywhere' } }}>
      <Anchor component={Link} to={paths.segments.list.getHref()} size="sm">
        Segments
      </Anchor>
      <Text size="sm">{current}</Text>
    </Breadcrumbs>
  );
}

export default function SegmentPage() {
  const { uuid = '' } = useParams();
  const segment = useQuery(segmentQueries.detail(uuid));

  if (segment.isPending) {
    return (
      <>
        <SegmentBreadcrumbs current="Segment" />
        <PageHeader title="Segment" />
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={240} radius="md" />
          <TableSkeleton columns={SEGMENT_CONTACT_COLUMNS} />
        </Stack>
      </>
    );
  }
  if (segment.isError) {
    const notFound = isApiError(segment.error) && segment.error.status === 404;
    return (
      <>
        <SegmentBreadcrumbs current="Segment" />
        <PageHeader title="Segment" />
        <ErrorState title="The segment could not be loaded." error={segment.error} onRetry={() => void segment.refetch()} />
        {notFound && (
          <Text size="sm" mt="md">
            If a link brought you here, the segment may belong to another of your teams: choose that team in the header and open the link again.
          </Text>
        )}
      </>
    );
  }
  return <SegmentView segment={segment.data} />;
}

function SegmentView({ segment }: { segment: Segment }) {
  const navigate = useNavigate();
  const canEdit = useTeamRole().can('edit');
  const update = useUpdateSegment();
  const { pickers, names, loadingNames } = useSegmentFormData(segment.conditions);
  const confirmDeletion = useConfirmSegmentDeletion(() => void navigate(paths.segments.list.getHref(), { state: LEAVE_ON_PURPOSE }));
  const defaultValues = useMemo(() => segmentFormValues(segment), [segment]);

  const save = (input: SegmentInput): Promise<unknown> =>
    update.mutateAsync(
      { uuid: segment.uuid, input },
      {
        onSuccess: (saved) => notifySuccess(`The segment ${saved.name} was saved.`),
        onError: (error) => notifyFailure('The segment could not be saved', error),
      },
    );

  return (
    <>
      <SegmentBreadcrumbs current={segment.name} />
      <PageHeader
        title={segment.name}
        description={segment.description || undefined}
        actions={
          canEdit && (
            <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDeletion(segment)}>
              Delete segment
            </Button>
          )
        }
      />
      <RoleNotice needs="edit" />
      <Stack gap="xl">
        {canEdit ? (
          // Keyed by the saved version: a save starts the form again from what was stored.
          <SegmentForm
            key={segment.updated_at}
            defaultValues={defaultValues}
            pickers={pickers}
            submitLabel="Save segment"
            onSubmit={save}
            aside={(draft) => <SegmentLiveCount draft={draft} />}
          />
        ) : (
          <Grid gap="xl">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Paper withBorder radius="md" p="md">
                {loadingNames ? (
                  <Skeleton height={80} aria-label="Loading the conditions" />
                ) : (
                  <SegmentConditions match={segment.match} conditions={segment.conditions} names={names} />
                )}
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <SavedCount uuid={segment.uuid} />
            </Grid.Col>
          </Grid>
        )}
        <SegmentRevenueCard uuid={segment.uuid} />
        <SegmentContacts segment={segment} canEdit={canEdit} />
      </Stack>
    </>
  );
}

function SavedCount({ uuid }: { uuid: string }) {
  const count = useQuery(segmentQueries.count(uuid));
  return (
    <SegmentCountPanel
      title="Contacts now"
      count={count.data}
      counting={count.isFetching}
      note={count.isError ? 'The count could not be read.' : 'Counted now, from the team’s contacts and what they did.'}
    />
  );
}

function SegmentContacts({ segment, canEdit }: { segment: Segment; canEdit: boolean }) {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const contacts = useQuery(segmentQueries.contacts(segment.uuid, { page, per_page: perPage }));
  return (
    <section aria-labelledby="segment-contacts">
      <Stack gap={4} mb="md">
        <Title order={2} size="h4" id="segment-contacts">
          Contacts in the segment
        </Title>
        <Text size="sm" c="dimmed">
          {canEdit
            ? 'The saved segment’s numbers, read now, with their fields from the team’s groups. Save your changes to see who they pick.'
            : 'The segment’s numbers, read now, with their fields from the team’s groups.'}
        </Text>
      </Stack>
      {contacts.isPending ? (
        <TableSkeleton columns={SEGMENT_CONTACT_COLUMNS} />
      ) : contacts.isError ? (
        <ErrorState title="The segment’s contacts could not be loaded." error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : contacts.data.meta.total === 0 ? (
        <EmptyPanel icon={<IconUsers />} title="No contacts match now" description="Contacts appear here as soon as they meet the conditions." />
      ) : (
        <>
          <SegmentContactsTable contacts={contacts.data.data} busy={contacts.isPlaceholderData} />
          <PaginationBar
            meta={contacts.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'contact', other: 'contacts' }}
          />
        </>
      )}
    </section>
  );
}
