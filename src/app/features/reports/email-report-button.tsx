import { Button, Stack, Text } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useId } from 'react';
import { reportFiltersInWords, type ReportType } from '../../../shared/contract';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { REPORT_DEFINITIONS } from './report-columns';
import { useRequestReport } from './report-mutations';
import type { ReportFilterParams } from './use-report-params';

interface EmailReportButtonProps {
  campaignUuid: string;
  type: ReportType;
  /** The filters of the report on screen: the e-mailed CSV holds the rows they show. */
  filters?: ReportFilterParams;
  /** The signed-in user's address, where the service sends the link; undefined while it loads. */
  email: string | undefined;
}

const NONE: ReportFilterParams = {};

/**
 * One click asks for the report as CSV, as the page shows it: under its filters, which the button
 * then names; the link goes to the signed-in user's address.
 */
export function EmailReportButton({ campaignUuid, type, filters = NONE, email }: EmailReportButtonProps) {
  const request = useRequestReport(campaignUuid);
  const { label } = REPORT_DEFINITIONS[type];
  const filtered = reportFiltersInWords(filters);
  const describedBy = useId();

  const send = () =>
    request.mutate(
      { type, filters },
      {
        onSuccess: () =>
          notifySuccess(
            `The ${label} report${filtered ? ` (${filtered})` : ''} is on its way to ${email ?? 'your e-mail address'}: a download link arrives shortly.`,
          ),
        onError: (error) => notifyFailure(`The ${label} report could not be requested`, error),
      },
    );

  return (
    <Stack gap={2} align="flex-end">
      <Button
        variant="light"
        leftSection={<IconMailForward size={16} />}
        onClick={send}
        loading={request.isPending}
        aria-describedby={filtered ? describedBy : undefined}
      >
        {filtered ? 'E-mail me these rows' : 'E-mail me this report'}
      </Button>
      {filtered && (
        <Text id={describedBy} size="xs" c="dimmed" ta="right">
          Only the rows that match: {filtered}
        </Text>
      )}
    </Stack>
  );
}
