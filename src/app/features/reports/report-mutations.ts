import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportType } from '../../../shared/contract';
import {
  requestAltDeliveryReport,
  requestClicksReport,
  requestDeliveryReport,
  requestRecipientReport,
  requestSentReport,
  requestUnsentReport,
} from '../../api/gen/sdk.gen';
import { reportJobKeys } from './report-queries';
import type { ReportFilterParams } from './use-report-params';

type ReportRequester = (options: { path: { campaign_uuid: string }; query?: ReportFilterParams; throwOnError: true }) => Promise<unknown>;

const REQUESTERS: Record<ReportType, ReportRequester> = {
  delivery: requestDeliveryReport,
  alt_delivery: requestAltDeliveryReport,
  recipient: requestRecipientReport,
  // The send report has no filters: whatever is given, none is sent.
  sent: ({ path, throwOnError }) => requestSentReport({ path, throwOnError }),
  unsent: requestUnsentReport,
  clicks: requestClicksReport,
};

/**
 * Asks the service to e-mail a report as CSV (202), under the filters on screen (the rows the page
 * shows, not the whole report); the jobs list is read again at once to show the new job.
 */
export function useRequestReport(campaignUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ type, filters = {} }: { type: ReportType; filters?: ReportFilterParams }) => {
      await REQUESTERS[type]({ path: { campaign_uuid: campaignUuid }, query: filters, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportJobKeys.all }),
  });
}
