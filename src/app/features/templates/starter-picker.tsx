import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { listTemplateStarters } from '../../api/gen/sdk.gen';
import type { TemplateStarter } from '../../api/gen/types.gen';

/** The service's starter templates (read-only; they never change while the dashboard runs). */
export const starterQuery = {
  queryKey: ['templates', 'starters'] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await listTemplateStarters({ signal, throwOnError: true })).data.data,
  staleTime: Infinity,
};

/**
 * "Start from a starter": picking one fills the editor with its name and body (a welcome, a sale, …),
 * each with fallbacks for its fields and the opt-out wording at the end.
 */
export function StarterPicker({ onPick }: { onPick: (starter: TemplateStarter) => void }) {
  const starters = useQuery(starterQuery);
  return (
    <Select
      label="Start from a starter"
      description="Fills the name and the message; every field has a fallback, and it ends with “Reply STOP to opt out.”"
      placeholder={starters.isPending ? 'Loading…' : 'Pick a starter'}
      data={(starters.data ?? []).map((starter) => ({ value: starter.key, label: `${starter.name}: ${starter.description}` }))}
      onChange={(key) => {
        const starter = starters.data?.find((candidate) => candidate.key === key);
        if (starter) onPick(starter);
      }}
      clearable={false}
      allowDeselect={false}
      maw={560}
    />
  );
}
