import { Paper } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CampaignInput } from '../../../shared/contract';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { CampaignForm } from '../../features/campaigns/campaign-form';
import { newCampaignValues } from '../../features/campaigns/campaign-form-values';
import { useCreateOrUpdateCampaign } from '../../features/campaigns/campaign-mutations';
import { CoverageWarning } from '../../features/campaigns/coverage-warning';
import { useReviewBeforeScheduling } from '../../features/campaigns/use-review-before-scheduling';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { approvalNotice } from './approval-notice';
import { CampaignFormSkeleton } from './campaign-form-skeleton';
import { CampaignTemplatePreview } from './campaign-template-preview';
import { prefetchCampaignFormData, useCampaignFormData } from './use-campaign-form-data';

export function prefetch(queryClient: QueryClient) {
  prefetchCampaignFormData(queryClient);
}

export default function CampaignNewPage() {
  const navigate = useNavigate();
  const creation = useCreateOrUpdateCampaign();
  // The draft saved from the review (to send a test): later saves change it rather than create another.
  const [stored, setStored] = useState<{ uuid: string; input: CampaignInput }>();
  const data = useCampaignFormData();
  const { timeZone } = data;
  const canIgnoreQuietHours = useTeamRole().can('admin');
  const defaultValues = useMemo(() => (timeZone ? newCampaignValues(timeZone) : undefined), [timeZone]);

  const create = (input: CampaignInput): Promise<unknown> =>
    creation.mutateAsync(
      { uuid: stored?.uuid, input },
      {
        onSuccess: (created) => {
          notifySuccess(
            created.is_draft
              ? `The draft ${created.name} was saved: nothing is sent until it is scheduled.`
              : `The campaign ${created.name} was scheduled.${approvalNotice(created)}`,
          );
          void navigate(paths.campaigns.detail.getHref(created.uuid));
        },
        onError: (error) => notifyFailure('The campaign could not be created', error),
      },
    );

  const saveDraftForTests = async (input: CampaignInput): Promise<string> => {
    const saved = await creation.mutateAsync(
      { uuid: stored?.uuid, input },
      {
        onSuccess: (draft) => notifySuccess(`The draft ${draft.name} was saved: send a test, then schedule it.`),
        onError: (error) => notifyFailure('The draft could not be saved', error),
      },
    );
    setStored({ uuid: saved.uuid, input });
    return saved.uuid;
  };

  const { review, modal: reviewModal } = useReviewBeforeScheduling({
    saved: stored,
    timeZone: timeZone ?? '',
    ownNumber: data.ownNumber,
    saveDraft: saveDraftForTests,
    onSchedule: create,
  });

  return (
    <>
      {reviewModal}
      <PageHeader title="New campaign" description="Pick the message, who receives it and when; the plan follows as you type." />
      <RoleRequired needs="edit" back={{ href: paths.campaigns.list.getHref(), label: 'Back to campaigns' }}>
        {!timeZone || !defaultValues ? (
          data.error ? (
            <ErrorState title="The campaign form could not be loaded." error={data.error} onRetry={data.refetch} />
          ) : (
            <CampaignFormSkeleton />
          )
        ) : (
          <Paper withBorder p="lg" radius="md">
            <CampaignForm
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
              renderTemplatePreview={(uuid, sender) => <CampaignTemplatePreview templateUuid={uuid} sender={sender} />}
              canIgnoreQuietHours={canIgnoreQuietHours}
              quietHours={data.quietHours}
              scheduleLabel="Review and schedule"
              onSchedule={review}
              aside={(values) => <CoverageWarning values={values} timeZone={timeZone} />}
              onSaveDraft={create}
              onCancel={() => void navigate(paths.campaigns.list.getHref())}
            />
          </Paper>
        )}
      </RoleRequired>
    </>
  );
}
