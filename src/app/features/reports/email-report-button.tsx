import { Button } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import type { ReportType } from '../../../shared/contract';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { REPORT_DEFINITIONS } from './report-columns';
import { useRequestReport } from './report-mutations';

interface EmailReportButtonProps {
  campaignUuid: string;
  type: ReportType;
  /** The signed-in user's address, where the service sends the link; undefined while it loads. */
  email: string | undefined;
}

/** One click asks for the whole report as CSV; the link goes to the signed-in user's address. */
export function EmailReportButton({ campaignUuid, type, email }: EmailReportButtonProps) {
  const request = useRequestReport(campaignUuid);
  const { label } = REPORT_DEFINITIONS[type];

  const send = () =>
    request.mutate(type, {
      onSuccess: () => notifySuccess(`The ${label} report is on its way to ${email ?? 'your e-mail address'}: a download link arrives shortly.`),
      onError: (error) => notifyFailure(`The ${label} report could not be requested`, error),
    });

  return (
    <Button variant="light" leftSection={<IconMailForward size={16} />} onClick={send} loading={request.isPending}>
      E-mail me this report
    </Button>
  );
}
