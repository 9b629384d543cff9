import { Button, Paper, Skeleton, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import type { LinkInput, TemplateInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { LEAVE_ON_PURPOSE } from '../../components/unsaved-changes-guard';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { useCreateLink, useDeleteLink } from '../../features/links/link-mutations';
import { LinksPanel } from '../../features/links/links-panel';
import { TrackUrlModal } from '../../features/links/track-url-modal';
import { ScheduledCampaignsNotice } from '../../features/templates/scheduled-campaigns-notice';
import { ServerPreview } from '../../features/templates/server-preview';
import { TemplateForm } from '../../features/templates/template-form';
import { TEMPLATE_LOCKED_MESSAGE } from '../../features/templates/template-lock-alert';
import { useUpdateTemplate } from '../../features/templates/template-mutations';
import { templateQueries } from '../../features/templates/template-queries';
import { templateUsageQueries } from '../../features/templates/template-usage-queries';
import { useConfirmTemplateDeletion } from '../../features/templates/use-confirm-template-deletion';
import { notifyFailure, notifyFailureMessage, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchTemplateEditorData, useTemplateEditorData } from './use-template-editor-data';

export function prefetch(queryClient: QueryClient, { params }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  void queryClient.prefetchQuery(templateQueries.detail(params.uuid));
  void queryClient.prefetchQuery(templateUsageQueries.pendingCampaigns(params.uuid));
  prefetchTemplateEditorData(queryClient, params.uuid);
}

const NO_GROUPS: readonly string[] = [];

export default function TemplateEditPage() {
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const template = useQuery(templateQueries.detail(uuid));
  const update = useUpdateTemplate(uuid);
  const pending = useQuery(templateUsageQueries.pendingCampaigns(uuid));
  // Measured against who will get it next: the included groups of its latest scheduled campaign (the list is newest first).
  const latestGroups = pending.data?.data[0]?.included_contact_groups ?? NO_GROUPS;
  const { senderNames, onSenderSearch, vanityDomains, shortLinks, fieldSuggestions, contactGroups, knownGroups, onGroupSearch } = useTemplateEditorData(
    uuid,
    latestGroups,
  );
  const audience = useMemo(
    () => ({ templateUuid: uuid, groups: contactGroups, knownGroups, onGroupSearch, defaultGroups: latestGroups }),
    [uuid, contactGroups, knownGroups, onGroupSearch, latestGroups],
  );
  const backToList = () => void navigate(paths.templates.list.getHref());
  // After a deletion there is nothing left to save: no "leave without saving?" question.
  const confirmDeletion = useConfirmTemplateDeletion(() => void navigate(paths.templates.list.getHref(), { state: LEAVE_ON_PURPOSE }));
  const createLink = useCreateLink();
  const deleteLink = useDeleteLink();
  const canEdit = useTeamRole().can('edit');

  /** The links tracked in the editor are created first; if the template is then not saved, they are deleted again. */
  const save = async (input: TemplateInput, newLinks: readonly LinkInput[]) => {
    const created: string[] = [];
    try {
      for (const link of newLinks) {
        try {
          created.push((await createLink.mutateAsync(link)).uuid);
        } catch (error) {
          notifyFailure(`The link ${link.name} could not be added, so the template was not saved`, error);
          // Not the template's fields: the message is in the notice.
          throw new Error('link not added', { cause: error });
        }
      }
      return await update.mutateAsync(input, {
        onSuccess: (saved) => notifySuccess(`The template ${saved.name} was saved.`),
        onError: (error) =>
          isApiError(error) && error.status === 423
            ? notifyFailureMessage('The template is locked', TEMPLATE_LOCKED_MESSAGE)
            : notifyFailure('The template could not be saved', error),
      });
    } catch (error) {
      await Promise.allSettled(created.map((linkUuid) => deleteLink.mutateAsync(linkUuid)));
      throw error;
    }
  };

  return (
    <>
      <PageHeader
        title={template.data ? template.data.name : 'Edit template'}
        description={
          canEdit ? 'Edit the message; the preview and the counters follow as you type.' : 'The message, how it looks on a phone, and its tracked links.'
        }
        actions={
          template.data &&
          canEdit && (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => template.data && confirmDeletion(template.data)}>
              Delete
            </Button>
          )
        }
      />
      <RoleNotice needs="edit" />
      {template.isPending ? (
        <Paper withBorder p="lg" radius="md" aria-busy="true" aria-label="Loading">
          <Stack maw={640}>
            <Skeleton height={14} width="30%" />
            <Skeleton height={36} />
            <Skeleton height={36} />
            <Skeleton height={160} />
          </Stack>
        </Paper>
      ) : template.isError ? (
        <ErrorState title="The template could not be loaded." error={template.error} onRetry={() => void template.refetch()} />
      ) : (
        <Stack gap="xl">
          <Paper withBorder p="lg" radius="md">
            <TemplateForm
              // A lock found on saving (423) starts the form again, read-only, from what is stored.
              key={`${template.data.uuid}:${template.data.is_locked}`}
              defaultValues={{ name: template.data.name, body: template.data.body, sender: template.data.sender, force_utf8: false }}
              senders={senderNames}
              onSenderSearch={onSenderSearch}
              shortLinks={shortLinks}
              fieldSuggestions={fieldSuggestions}
              linksEmptyMessage="No links yet: add one in Links below."
              locked={template.data.is_locked}
              readOnly={!canEdit}
              serverPreview={<ServerPreview templateUuid={uuid} />}
              audience={audience}
              renderLinkTracker={canEdit ? (props) => <TrackUrlModal {...props} templateUuid={uuid} vanityDomains={vanityDomains} /> : undefined}
              saveNotice={<ScheduledCampaignsNotice templateUuid={uuid} />}
              submitLabel="Save changes"
              onSubmit={save}
              onCancel={backToList}
            />
          </Paper>
          <Paper withBorder p="lg" radius="md">
            <LinksPanel templateUuid={uuid} vanityDomains={vanityDomains} readOnly={template.data.is_locked} editable={canEdit} />
          </Paper>
        </Stack>
      )}
    </>
  );
}
