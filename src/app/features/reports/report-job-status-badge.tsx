import { Badge, Loader } from '@mantine/core';
import type { ReportJob } from '../../api/gen/types.gen';
import { isReportJobUnderWay } from './report-queries';

const LOOKS: Record<ReportJob['status'], { color: string; label: string }> = {
  queued: { color: 'gray', label: 'Queued' },
  writing: { color: 'blue', label: 'Writing CSV' },
  mailing: { color: 'indigo', label: 'Mailing' },
  sent: { color: 'teal', label: 'Sent' },
  failed: { color: 'red', label: 'Failed' },
};

export function ReportJobStatusBadge({ status }: { status: ReportJob['status'] }) {
  const look = LOOKS[status];
  return (
    <Badge color={look.color} variant="light" leftSection={isReportJobUnderWay({ status }) ? <Loader size={10} color={look.color} aria-hidden /> : undefined}>
      {look.label}
    </Badge>
  );
}
