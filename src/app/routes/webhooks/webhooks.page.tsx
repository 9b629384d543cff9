import { Button, Stack } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { Webhook, WebhookWithSecret } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { SigningSecretNotice } from '../../components/signing-secret-notice';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { useConfirmSecretRotation } from '../../features/webhooks/use-confirm-secret-rotation';
import { useConfirmWebhookDeletion } from '../../features/webhooks/use-confirm-webhook-deletion';
import { WebhookCreateModal, WebhookEditModal } from '../../features/webhooks/webhook-modals';
import { webhookQueries } from '../../features/webhooks/webhook-queries';
import { WEBHOOK_COLUMNS, WebhooksTable } from '../../features/webhooks/webhooks-table';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(webhookQueries.list({ page, per_page: perPage }));
}

interface ShownSecret {
  webhook: WebhookWithSecret;
  reason: 'created' | 'rotated';
}

export default function WebhooksPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const webhooks = useQuery(webhookQueries.list({ page, per_page: perPage }));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Webhook | null>(null);
  // Held in memory only: the secret is gone once dismissed or the page is left.
  const [shownSecret, setShownSecret] = useState<ShownSecret | null>(null);
  const confirmDeletion = useConfirmWebhookDeletion();
  const confirmRotation = useConfirmSecretRotation((webhook) => setShownSecret({ webhook, reason: 'rotated' }));
  const canChange = useTeamRole().can('admin');

  const newWebhookButton = canChange && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New webhook
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Keywords can call these URLs when someone texts them. Every call is signed with the webhook's secret."
        actions={newWebhookButton}
      />
      <RoleNotice needs="admin" subject="webhooks" />
      <Stack gap="lg">
        {shownSecret && (
          <SigningSecretNotice
            title={shownSecret.reason === 'created' ? `Webhook “${shownSecret.webhook.name}” created` : `New signing secret for “${shownSecret.webhook.name}”`}
            secret={shownSecret.webhook.secret}
            note={shownSecret.reason === 'rotated' ? 'The previous secret no longer signs calls.' : undefined}
            onDismiss={() => setShownSecret(null)}
          />
        )}
        {webhooks.isPending ? (
          <TableSkeleton columns={WEBHOOK_COLUMNS} rows={3} />
        ) : webhooks.isError ? (
          <ErrorState title="The webhooks could not be loaded." error={webhooks.error} onRetry={() => void webhooks.refetch()} />
        ) : webhooks.data.meta.total === 0 ? (
          <EmptyPanel
            icon={<IconWebhook />}
            title="No webhooks yet"
            description={canChange ? 'Add a webhook to tell your own systems when someone texts a keyword.' : 'Webhooks an admin adds show here.'}
            action={newWebhookButton}
          />
        ) : (
          <div>
            <WebhooksTable
              webhooks={webhooks.data.data}
              actions={canChange ? { onEdit: setEditing, onRotateSecret: confirmRotation, onDelete: confirmDeletion } : undefined}
            />
            <PaginationBar
              meta={webhooks.data.meta}
              perPage={perPage}
              onPageChange={setPage}
              onPerPageChange={setPerPage}
              noun={{ one: 'webhook', other: 'webhooks' }}
            />
          </div>
        )}
      </Stack>
      {canChange && (
        <>
          <WebhookCreateModal opened={creating} onClose={() => setCreating(false)} onCreated={(webhook) => setShownSecret({ webhook, reason: 'created' })} />
          <WebhookEditModal webhook={editing} onClose={() => setEditing(null)} />
        </>
      )}
    </>
  );
}
