import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconFlask, IconPlayerPauseFilled, IconPlayerPlayFilled, IconPlayerStopFilled, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import { CampaignInputSchema, type CampaignInput } from '../../../shared/contract';
import { shorthandNames } from '../../../shared/sms';
import { isApiError } from '../../api/api-error';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { AbTestCard } from '../../features/campaigns/ab-test-card';
import { CampaignApprovalPanel } from '../../features/campaigns/campaign-approval';
import { serviceTimestamp } from '../../lib/service-zone';
import { CampaignBadges, isManuallyPaused, isStoppable } from '../../features/campaigns/campaign-badges';
import { CampaignForm } from '../../features/campaigns/campaign-form';
import { campaignFormValues, toCampaignInput } from '../../features/campaigns/campaign-form-values';
import { CoverageWarning } from '../../features/campaigns/coverage-warning';
import { QuietHoursNote } from '../../features/campaigns/campaign-review-panel';
import { useReviewBeforeScheduling } from '../../features/campaigns/use-review-before-scheduling';
import { lockReason, stoppedLine } from '../../features/campaigns/campaign-lock-alert';
import {
  useCopyCampaign,
  useDecideCampaignApproval,
  useToggleCampaignPaused,
  useUpdateCampaign,
  type ApprovalVerdict,
} from '../../features/campaigns/campaign-mutations';
import { campaignQueries } from '../../features/campaigns/campaign-queries';
import { RevenueCard } from '../../features/campaigns/revenue-card';
import { SendingProgressPanel } from '../../features/campaigns/sending-progress-panel';
import { SendTestModal } from '../../features/campaigns/send-test-modal';
import { useConfirmCampaignDeletion } from '../../features/campaigns/use-confirm-campaign-deletion';
import { useConfirmCampaignStop } from '../../features/campaigns/use-confirm-campaign-stop';
import { sendingCounts } from '../../features/campaigns/sending-progress';
import { useLiveCampaign } from '../../features/campaigns/use-live-campaign';
import { reportQueries } from '../../features/reports/report-queries';
import { parseReportParams } from '../../features/reports/use-report-params';
import { formatTimestamp } from '../../lib/format';
import { notifyFailure, notifyFailureMessage, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { approvalNotice } from './approval-notice';
import { CampaignFormSkeleton } from './campaign-form-skeleton';
import { CampaignTemplatePreview } from './campaign-template-preview';
import { prefetchCampaignFormData, useCampaignFormData } from './use-campaign-form-data';

// The reports are a chunk of their own: the page's first paint does not wait for them.
const loadCampaignReports = () => import('./campaign-reports');
const CampaignReports = lazy(loadCampaignReports);

export function prefetch(queryClient: QueryClient, { params, request }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  void queryClient.prefetchQuery(campaignQueries.detail(params.uuid));
  void queryClient.prefetchQuery(campaignQueries.summary(params.uuid));
  prefetchCampaignFormData(queryClient);
  const { type, page, perPage, filters } = parseReportParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(reportQueries.page(params.uuid, type, { page, per_page: perPage, ...filters }));
  void loadCampaignReports();
}

export default function CampaignPage() {
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  // The saved choices name an older template or group in the pickers (the same cached read as useLiveCampaign's).
  const { data: saved } = useQuery(campaignQueries.detail(uuid));
  const data = useCampaignFormData(saved);
  const { timeZone } = data;
  const { campaign, summary, sendRate } = useLiveCampaign(uuid, timeZone);
  const update = useUpdateCampaign(uuid);
  const togglePaused = useToggleCampaignPaused(uuid);
  const copy = useCopyCampaign(uuid);
  const [testOpened, setTestOpened] = useState(false);
  // The service's sentence when it refused a save with 423; the reloaded campaign then shows the lock.
  const [lockMessage, setLockMessage] = useState<string>();
  const backToList = () => void navigate(paths.campaigns.list.getHref());
  const confirmDeletion = useConfirmCampaignDeletion(backToList);
  const { confirm: confirmStop, stopping } = useConfirmCampaignStop(uuid);
  const teamRole = useTeamRole();
  const canEdit = teamRole.can('edit');
  const { data: userUuid } = useQuery({ ...currentUserQueries.me(), select: (user) => user.uuid });
  const decideApproval = useDecideCampaignApproval(uuid);

  const template = [...data.knownTemplates, ...data.templates].find((candidate) => candidate.uuid === campaign.data?.template_uuid);
  const fieldNames = useMemo(() => (template ? shorthandNames(template.body).fields : []), [template]);
  const defaultValues = useMemo(() => (campaign.data ? campaignFormValues(campaign.data) : undefined), [campaign.data]);

  const wasDraft = campaign.data?.is_draft ?? false;
  const save = (input: CampaignInput) =>
    update.mutateAsync(input, {
      onSuccess: (saved) =>
        notifySuccess(
          saved.is_draft
            ? `The draft ${saved.name} was saved: nothing is sent until it is scheduled.`
            : wasDraft
              ? `The campaign ${saved.name} was scheduled.${approvalNotice(saved)}`
              : `The campaign ${saved.name} was saved.${approvalNotice(saved)}`,
        ),
      onError: (error) => {
        if (isApiError(error) && error.status === 423) {
          setLockMessage(error.message);
          notifyFailureMessage('The campaign is locked', error.message);
        } else notifyFailure('The campaign could not be saved', error);
      },
    });

  const savedInput = useMemo(() => (defaultValues ? CampaignInputSchema.parse(toCampaignInput(defaultValues)) : undefined), [defaultValues]);
  const { review, modal: reviewModal } = useReviewBeforeScheduling({
    saved: savedInput && { uuid, input: savedInput },
    timeZone: timeZone ?? '',
    ownNumber: data.ownNumber,
    saveDraft: async (input) => (await save(input)).uuid,
    onSchedule: save,
  });
  const loadedForQuiet = campaign.data;
  const quiet = useQuery({
    ...campaignQueries.review(uuid),
    enabled:
      loadedForQuiet !== undefined && !loadedForQuiet.is_draft && (loadedForQuiet.status === 0 || loadedForQuiet.status === 1) && !loadedForQuiet.stopped_at,
  });

  const toggle = () =>
    togglePaused.mutate(undefined, {
      onSuccess: (toggled) =>
        notifySuccess(toggled.manually_paused ? `${toggled.name} is paused: nothing is sent until you resume it.` : `${toggled.name} resumed.`),
      onError: (error) => notifyFailure('The campaign could not be paused or resumed', error),
    });

  // A draft copy opens at once: the marketer edits and schedules it there.
  const copyAs = (kind: 'duplicate' | 'unreached') =>
    copy.mutate(kind, {
      onSuccess: (draft) => {
        notifySuccess(kind === 'duplicate' ? `${draft.name}: a draft copy.` : `${draft.name}: a draft to those not reached.`);
        void navigate(paths.campaigns.detail.getHref(draft.uuid));
      },
      onError: (error) => notifyFailure(kind === 'duplicate' ? 'The campaign could not be duplicated' : 'The draft could not be made', error),
    });

  const decide = (verdict: ApprovalVerdict, comment: string) =>
    decideApproval.mutateAsync(
      { verdict, comment },
      {
        onSuccess: (decided) =>
          notifySuccess(
            verdict === 'approve'
              ? `${decided.name} is approved: it starts ${decided.is_locked ? 'now' : 'at its send time'}.`
              : `${decided.name} is rejected: it will not start unless it is changed and approved.`,
          ),
        onError: (error) => notifyFailure(verdict === 'approve' ? 'The campaign could not be approved' : 'The campaign could not be rejected', error),
      },
    );

  const loaded = campaign.data;
  const paused = loaded ? isManuallyPaused(loaded) : false;
  // Once the campaign sends, its reports matter more than its (locked) form, so they come first.
  const reports = loaded && timeZone && (
    <Suspense fallback={<Skeleton height={420} radius="md" />}>
      <CampaignReports campaign={loaded} summary={summary.data} timeZone={timeZone} />
    </Suspense>
  );

  return (
    <>
      <PageHeader
        title={loaded ? loaded.name : 'Campaign'}
        description={
          loaded
            ? loaded.is_draft
              ? `A draft: nothing is sent until it is scheduled (send time ${formatTimestamp(loaded.scheduled_send_date)}, ${timeZone ?? 'service time'}).`
              : loaded.stopped_at
                ? `Stopped at ${formatTimestamp(loaded.stopped_at)} (${timeZone ?? 'service time'}); it was scheduled for ${formatTimestamp(loaded.scheduled_send_date)}.`
                : `Scheduled for ${formatTimestamp(loaded.scheduled_send_date)} (${timeZone ?? 'service time'}).`
            : undefined
        }
        actions={
          loaded &&
          canEdit && (
            <>
              {isStoppable(loaded) && (
                <Button color="red" leftSection={<IconPlayerStopFilled size={16} />} onClick={() => confirmStop(loaded)} loading={stopping}>
                  Stop sending
                </Button>
              )}
              {loaded.throttled && loaded.status !== 2 && !loaded.stopped_at && (
                <Button
                  variant={paused ? 'filled' : 'light'}
                  color={paused ? 'teal' : 'yellow'}
                  leftSection={paused ? <IconPlayerPlayFilled size={16} /> : <IconPlayerPauseFilled size={16} />}
                  onClick={toggle}
                  loading={togglePaused.isPending}
                >
                  {paused ? 'Resume sending' : 'Pause sending'}
                </Button>
              )}
              <Button variant="default" leftSection={<IconFlask size={16} />} onClick={() => setTestOpened(true)} disabled={!timeZone}>
                Send a test
              </Button>
              <Button
                variant="default"
                leftSection={<IconCopy size={16} />}
                onClick={() => copyAs('duplicate')}
                loading={copy.isPending && copy.variables === 'duplicate'}
              >
                Duplicate
              </Button>
              {(loaded.stopped_at || loaded.expired_at) && (
                <Button
                  variant="default"
                  leftSection={<IconSend size={16} />}
                  onClick={() => copyAs('unreached')}
                  loading={copy.isPending && copy.variables === 'unreached'}
                >
                  Send to those not reached
                </Button>
              )}
              <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDeletion(loaded)}>
                Delete
              </Button>
            </>
          )
        }
      />
      <RoleNotice needs="edit" />
      {reviewModal}
      {campaign.isPending || (!timeZone && !data.error) ? (
        <CampaignFormSkeleton />
      ) : campaign.isError ? (
        <ErrorState title="The campaign could not be loaded." error={campaign.error} onRetry={() => void campaign.refetch()} />
      ) : !timeZone || !defaultValues ? (
        <ErrorState title="The campaign form could not be loaded." error={data.error} onRetry={data.refetch} />
      ) : (
        <Stack gap="lg">
          <CampaignApprovalPanel
            campaign={campaign.data}
            viewer={{ userUuid, role: teamRole.role, teamName: teamRole.teamName }}
            canEdit={canEdit}
            onDecide={decide}
            sendTimePassed={timeZone !== undefined && campaign.data.scheduled_send_date <= serviceTimestamp(timeZone)}
          />
          <Paper withBorder p="lg" radius="md">
            <Group justify="space-between" mb="md">
              <Group gap="sm">
                <Title order={2} size="h4">
                  Status
                </Title>
                <CampaignBadges campaign={campaign.data} sent={summary.data && sendingCounts(summary.data).sent} />
              </Group>
              {campaign.data.throttled && (
                <Text size="sm" c="dimmed">
                  {paused ? 'Paused by hand: nothing is sent until it is resumed.' : 'Throttled'} · finishes by{' '}
                  {formatTimestamp(campaign.data.scheduled_finish_date)}
                </Text>
              )}
            </Group>
            {campaign.data.stopped_at && (
              <Alert color="red" variant="light" icon={<IconPlayerStopFilled />} title={stoppedLine(campaign.data)} role="note" mb="md">
                Nothing more is sent. Messages that were still queued are recorded as unsent with the reason “stopped” (see the unsent report); what was sent
                before stays in the reports.
              </Alert>
            )}
            {quiet.data?.quiet_hours && (
              <Stack mb="md">
                <QuietHoursNote review={quiet.data} />
              </Stack>
            )}
            {summary.isError ? (
              <ErrorState title="The counts could not be loaded." error={summary.error} onRetry={() => void summary.refetch()} />
            ) : summary.data ? (
              <SendingProgressPanel campaign={campaign.data} summary={summary.data} countedAt={summary.dataUpdatedAt} timeZone={timeZone} sendRate={sendRate} />
            ) : null}
          </Paper>
          <AbTestCard campaign={campaign.data} canEdit={canEdit} currency={summary.data?.currency} />
          {summary.data && <RevenueCard summary={summary.data} />}
          {campaign.data.status !== 0 && reports}
          <Paper withBorder p="lg" radius="md">
            <CampaignForm
              // A lock found on saving (423) starts the form again, read-only, from what is stored.
              key={`${campaign.data.uuid}:${campaign.data.is_locked}`}
              defaultValues={defaultValues}
              timeZone={timeZone}
              templates={data.templates}
              senders={data.senderNames}
              groups={data.groupOptions}
              excludedGroups={data.excludedGroupOptions}
              knownTemplates={data.knownTemplates}
              knownGroups={data.knownGroups}
              segments={data.segments}
              onSearch={data.search}
              renderTemplatePreview={(templateUuid, sender) => <CampaignTemplatePreview templateUuid={templateUuid} sender={sender} />}
              lockReason={campaign.data.is_locked ? lockReason(campaign.data) : undefined}
              lockMessage={lockMessage}
              readOnly={!canEdit}
              canIgnoreQuietHours={teamRole.can('admin')}
              quietHours={data.quietHours}
              scheduleLabel={campaign.data.is_draft ? 'Review and schedule' : 'Review and save'}
              onSchedule={review}
              aside={(values) => <CoverageWarning values={values} timeZone={timeZone} />}
              draftLabel={campaign.data.is_draft ? 'Save draft' : 'Move back to drafts'}
              onSaveDraft={save}
              onCancel={backToList}
            />
          </Paper>
          {campaign.data.status === 0 && reports}
          <SendTestModal campaign={campaign.data} fieldNames={fieldNames} timeZone={timeZone} opened={testOpened} onClose={() => setTestOpened(false)} />
        </Stack>
      )}
    </>
  );
}
