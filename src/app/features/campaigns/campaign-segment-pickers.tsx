import { Controller, useWatch, type Control } from 'react-hook-form';
import type { CampaignInput } from '../../../shared/contract';
import { ServerSearchMultiSelect } from '../../components/server-search';
import { memo } from 'react';
import type { CampaignFormValues } from './campaign-form-values';

interface SegmentOption {
  value: string;
  label: string;
}

/** The team's segments found for each picker, and those that name the chosen ones whatever was found. */
export interface CampaignSegmentOptions {
  included: readonly SegmentOption[];
  excluded: readonly SegmentOption[];
  known?: readonly SegmentOption[];
}

/**
 * Issue 35: the segments sent to and skipped, beside the groups. Memoised: the campaign form renders
 * again on every keystroke, and these pickers change only with their own values and errors.
 */
export const CampaignSegmentPickers = memo(function CampaignSegmentPickers({
  control,
  segments,
  onSearch,
  includedError,
  excludedError,
}: {
  control: Control<CampaignFormValues, unknown, CampaignInput>;
  segments: CampaignSegmentOptions;
  onSearch?: Partial<Record<'includedSegments' | 'excludedSegments', (text: string) => void>>;
  includedError?: string;
  excludedError?: string;
}) {
  const included = useWatch({ control, name: 'included_segments' });
  const excludedOptions = segments.excluded.map((segment) => ({ ...segment, disabled: included.includes(segment.value) }));
  return (
    <>
      <Controller
        control={control}
        name="included_segments"
        render={({ field }) => (
          <ServerSearchMultiSelect
            ref={field.ref}
            label="Send to these segments"
            description="Everyone a segment picks when sending starts, with the groups above; each number once."
            placeholder={field.value.length ? undefined : 'Optional'}
            data={segments.included}
            known={segments.known}
            onSearch={onSearch?.includedSegments}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            nothingFoundMessage="No segment of that name"
            error={includedError}
          />
        )}
      />
      <Controller
        control={control}
        name="excluded_segments"
        render={({ field }) => (
          <ServerSearchMultiSelect
            ref={field.ref}
            label="Leave out these segments"
            description="Their numbers are skipped, as those of the groups left out."
            placeholder={field.value.length ? undefined : 'Optional'}
            data={excludedOptions}
            known={segments.known}
            onSearch={onSearch?.excludedSegments}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            nothingFoundMessage="No segment of that name"
            error={excludedError}
          />
        )}
      />
    </>
  );
});
