import { Alert, Paper, Stack } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import type { QueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { TemplateInput } from '../../../shared/contract';
import { PageHeader } from '../../components/page-header';
import { RoleRequired } from '../../features/auth/role-notice';
import { useCreateTemplate } from '../../features/templates/template-mutations';
import { TemplateForm } from '../../features/templates/template-form';
import { StarterPicker } from '../../features/templates/starter-picker';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';
import { prefetchTemplateEditorData, useTemplateEditorData } from './use-template-editor-data';

export function prefetch(queryClient: QueryClient) {
  prefetchTemplateEditorData(queryClient);
}

const LINKS_AFTER_SAVE = 'Links can be added once the template is saved.';

export default function TemplateNewPage() {
  const navigate = useNavigate();
  const creation = useCreateTemplate();
  const { senderNames, onSenderSearch, shortLinks, fieldSuggestions, contactGroups, knownGroups, onGroupSearch } = useTemplateEditorData();
  // A starter picked fills the editor: the form starts again from it (its key remounts it).
  const [start, setStart] = useState<{ key: string; values: TemplateInput } | null>(null);
  const audience = useMemo(() => ({ groups: contactGroups, knownGroups, onGroupSearch }), [contactGroups, knownGroups, onGroupSearch]);

  const create = (input: TemplateInput) =>
    creation.mutateAsync(input, {
      onSuccess: (created) => {
        notifySuccess(`The template ${created.name} was created.`);
        // Straight to its editor, where links can now be added.
        void navigate(paths.templates.edit.getHref(created.uuid));
      },
      onError: (error) => notifyFailure('The template could not be created', error),
    });

  return (
    <>
      <PageHeader title="New template" description="Write the message; the preview and the counters follow as you type." />
      <RoleRequired needs="edit" back={{ href: paths.templates.list.getHref(), label: 'Back to templates' }}>
        <Stack gap="lg">
          <Paper withBorder p="lg" radius="md">
            <StarterPicker
              onPick={(starter) => setStart({ key: starter.key, values: { name: starter.name, body: starter.body, sender: '', force_utf8: false } })}
            />
          </Paper>
          <Paper withBorder p="lg" radius="md">
            <TemplateForm
              key={start?.key ?? 'blank'}
              defaultValues={start?.values}
              senders={senderNames}
              onSenderSearch={onSenderSearch}
              shortLinks={shortLinks}
              fieldSuggestions={fieldSuggestions}
              linksEmptyMessage={LINKS_AFTER_SAVE}
              audience={audience}
              submitLabel="Create template"
              onSubmit={create}
              onCancel={() => void navigate(paths.templates.list.getHref())}
            />
          </Paper>
          <Alert color="blue" variant="light" icon={<IconLink />} title="Tracked links">
            {LINKS_AFTER_SAVE} Then add each link with a name, and write ::NAME:: in the message where it goes.
          </Alert>
        </Stack>
      </RoleRequired>
    </>
  );
}
