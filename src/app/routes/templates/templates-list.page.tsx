import { Button } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { templateQueries } from '../../features/templates/template-queries';
import { TEMPLATE_COLUMNS, TemplatesTable } from '../../features/templates/templates-table';
import { useConfirmTemplateDeletion } from '../../features/templates/use-confirm-template-deletion';
import { vanityDomainQueries } from '../../features/vanity-domains/vanity-domain-queries';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(templateQueries.list({ page, per_page: perPage }));
  void queryClient.prefetchQuery(vanityDomainQueries.picker());
}

export default function TemplatesListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const templates = useQuery(templateQueries.list({ page, per_page: perPage }));
  const vanityDomains = useQuery(vanityDomainQueries.picker());
  const confirmDeletion = useConfirmTemplateDeletion();
  const canEdit = useTeamRole().can('edit');

  const newTemplateButton = canEdit && (
    <Button component={Link} to={paths.templates.new.getHref()} leftSection={<IconPlus size={16} />}>
      New template
    </Button>
  );

  return (
    <>
      <PageHeader title="Templates" description="The messages your campaigns send, with their fields and tracked links." actions={newTemplateButton} />
      <RoleNotice needs="edit" />
      {templates.isPending ? (
        <TableSkeleton columns={TEMPLATE_COLUMNS} />
      ) : templates.isError ? (
        <ErrorState title="The templates could not be loaded." error={templates.error} onRetry={() => void templates.refetch()} />
      ) : templates.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconTemplate />}
          title="No templates yet"
          description={
            canEdit ? 'Write your first message: the editor counts segments and shows the preview as you type.' : 'Templates your team writes show here.'
          }
          action={newTemplateButton || undefined}
        />
      ) : (
        <>
          <TemplatesTable templates={templates.data.data} vanityDomains={vanityDomains.data ?? []} onDelete={canEdit ? confirmDeletion : undefined} />
          <PaginationBar
            meta={templates.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'template', other: 'templates' }}
          />
        </>
      )}
    </>
  );
}
