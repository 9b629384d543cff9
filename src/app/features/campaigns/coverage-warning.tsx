import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { CampaignInputSchema } from '../../../shared/contract';
import { campaignQueries } from './campaign-queries';
import { campaignErrors, toCampaignInput, type CampaignFormValues } from './campaign-form-values';
import { CoverageList } from './campaign-review-panel';

const DEBOUNCE_MS = 600;

/**
 * The personalisation gaps of the picked template over the picked groups, as the review will show
 * them, asked again once the form stops changing. The name and sender do not change the coverage:
 * stand-ins let it be asked before they are typed.
 */
export function CoverageWarning({ values, timeZone }: { values: CampaignFormValues; timeZone: string }) {
  const errors = campaignErrors(values, timeZone);
  const ready =
    values.template_uuid !== '' && values.included_contact_groups.length > 0 && Object.keys(errors).every((field) => field === 'name' || field === 'sender');
  const parsed = ready
    ? CampaignInputSchema.safeParse({
        ...toCampaignInput(values),
        ...(errors.name && { name: 'Coverage check' }),
        ...(errors.sender && { sender: 'Herald' }),
        is_draft: true,
      })
    : undefined;
  const [input] = useDebouncedValue(parsed?.success ? parsed.data : undefined, DEBOUNCE_MS);
  const preview = useQuery({ ...campaignQueries.preview(input!), enabled: input !== undefined });
  const coverage = preview.data?.coverage ?? [];
  if (!input || !coverage.some((field) => !field.fallback && (field.missing > 0 || field.groups_without.length > 0))) return null;
  return <CoverageList coverage={coverage} />;
}
