import { Button, Paper, Skeleton, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import type { KeywordInput } from '../../../shared/contract';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { KeywordForm } from '../../features/keywords/keyword-form';
import { useUpdateKeyword } from '../../features/keywords/keyword-mutations';
import { keywordQueries } from '../../features/keywords/keyword-queries';
import { useConfirmKeywordDeletion } from '../../features/keywords/use-confirm-keyword-deletion';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchKeywordTargets, useKeywordPickers } from './use-keyword-targets';

export function prefetch(queryClient: QueryClient, { params }: LoaderFunctionArgs) {
  if (params.uuid) void queryClient.prefetchQuery(keywordQueries.detail(params.uuid));
  prefetchKeywordTargets(queryClient);
}

export default function KeywordEditPage() {
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const keyword = useQuery(keywordQueries.detail(uuid));
  const update = useUpdateKeyword(uuid);
  const pickers = useKeywordPickers(keyword.data);
  const backToList = () => void navigate(paths.keywords.list.getHref());
  const confirmDeletion = useConfirmKeywordDeletion(backToList);
  const canEdit = useTeamRole().can('edit');

  const save = (input: KeywordInput) =>
    update.mutateAsync(input, {
      onSuccess: (saved) => {
        notifySuccess(`The keyword ${saved.keyword} was saved.`);
        backToList();
      },
      onError: (error) => notifyFailure('The keyword could not be saved', error),
    });

  return (
    <>
      <PageHeader
        title="Edit keyword"
        description={keyword.data && canEdit ? `Changing ${keyword.data.keyword}.` : undefined}
        actions={
          keyword.data &&
          canEdit && (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => keyword.data && confirmDeletion(keyword.data)}>
              Delete
            </Button>
          )
        }
      />
      <RoleRequired needs="edit" back={{ href: paths.keywords.list.getHref(), label: 'Back to keywords' }}>
        {keyword.isPending ? (
          <Paper withBorder p="lg" radius="md" aria-busy="true" aria-label="Loading">
            <Stack maw={560}>
              <Skeleton height={14} width="30%" />
              <Skeleton height={36} />
              <Skeleton height={80} />
              <Skeleton height={36} width={120} />
            </Stack>
          </Paper>
        ) : keyword.isError ? (
          <ErrorState title="The keyword could not be loaded." error={keyword.error} onRetry={() => void keyword.refetch()} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <KeywordForm
              key={keyword.data.uuid}
              defaultValues={{
                keyword: keyword.data.keyword,
                message: keyword.data.message,
                help: keyword.data.help,
                add_contact_to_group: keyword.data.add_contact_to_group,
                call_webhook: keyword.data.call_webhook,
                contact_groups_uuid: keyword.data.contact_groups_uuid,
                webhooks_uuid: keyword.data.webhooks_uuid,
              }}
              contactGroups={pickers.groupOptions}
              webhooks={pickers.webhookOptions}
              knownGroups={pickers.knownGroups}
              knownWebhooks={pickers.knownWebhooks}
              onSearch={pickers.search}
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
