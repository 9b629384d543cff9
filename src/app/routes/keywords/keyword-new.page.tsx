import { Paper } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { KeywordInput } from '../../../shared/contract';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { KeywordForm } from '../../features/keywords/keyword-form';
import { useCreateKeyword } from '../../features/keywords/keyword-mutations';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchKeywordTargets, useKeywordPickers } from './use-keyword-targets';

export function prefetch(queryClient: QueryClient) {
  prefetchKeywordTargets(queryClient);
}

export default function KeywordNewPage() {
  const navigate = useNavigate();
  const creation = useCreateKeyword();
  const pickers = useKeywordPickers();
  const backToList = () => void navigate(paths.keywords.list.getHref());

  const create = (input: KeywordInput) =>
    creation.mutateAsync(input, {
      onSuccess: (created) => {
        notifySuccess(`The keyword ${created.keyword} was created.`);
        backToList();
      },
      onError: (error) => notifyFailure('The keyword could not be created', error),
    });

  return (
    <>
      <PageHeader title="New keyword" description="Keywords are matched as whole words in the messages your numbers receive." />
      <RoleRequired needs="edit" back={{ href: paths.keywords.list.getHref(), label: 'Back to keywords' }}>
        <Paper withBorder p="lg" radius="md">
          <KeywordForm
            contactGroups={pickers.groupOptions}
            webhooks={pickers.webhookOptions}
            knownGroups={pickers.knownGroups}
            knownWebhooks={pickers.knownWebhooks}
            onSearch={pickers.search}
            submitLabel="Create keyword"
            onSubmit={create}
            onCancel={backToList}
          />
        </Paper>
      </RoleRequired>
    </>
  );
}
