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

type ReportRequester = (options: { path: { campaign_uuid: string }; throwOnError: true }) => Promise<unknown>;

const REQUESTERS: Record<ReportType, ReportRequester> = {
  delivery: requestDeliveryReport,
  alt_delivery: requestAltDeliveryReport,
  recipient: requestRecipientReport,
  sent: requestSentReport,
  unsent: requestUnsentReport,
  clicks: requestClicksReport,
};

/** Asks the service to e-mail a report as CSV (202); the jobs list is read again at once to show the new job. */
export function useRequestReport(campaignUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (type: ReportType) => {
      await REQUESTERS[type]({ path: { campaign_uuid: campaignUuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportJobKeys.all }),
  });
}
