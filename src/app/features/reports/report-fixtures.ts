import type { AltDeliveryReportRow, ReportJob, SentReportRow } from '../../api/gen/types.gen';
import { page } from '../../testing/mock-api';

export const REPORT_CAMPAIGN_UUID = '5d1c6a70-0000-4000-8000-000000000001';

export function altDeliveryRow(index: number): AltDeliveryReportRow {
  return {
    MessageId: `0000000${index}-0000-4000-8000-000000000000`,
    Mobile: `+4477009${String(index).padStart(5, '0')}`,
    FieldNames: 'first_name,city',
    FieldValues: `Ada${index},London`,
    MessageSent: '2026-03-02 09:00:05',
    MessageUpdate: '2026-03-02 09:00:07',
    Status: 'Success',
  };
}

export function sentRow(overrides: Partial<SentReportRow> = {}): SentReportRow {
  return {
    MessageId: REPORT_CAMPAIGN_UUID,
    Brand: 'HeraldShop',
    SentOn: '2026-03-02 09:00:00',
    RecipientCount: 12345,
    TemplateApiId: '5d1c6a70-0000-4000-8000-0000000000a1',
    TemplateName: 'Spring',
    Message: 'Hi {{first_name}}',
    ...overrides,
  };
}

/** The page `page` of a report of `total` rows made by `row`, as the service sends it. */
export function reportPage<T>(total: number, current: number, perPage: number, row: (index: number) => T) {
  const first = (current - 1) * perPage + 1;
  const rows = Array.from({ length: Math.max(0, Math.min(perPage, total - first + 1)) }, (_, offset) => row(first + offset));
  return page(rows, { current_page: current, per_page: perPage, total });
}

export function reportJob(overrides: Partial<ReportJob> = {}): ReportJob {
  return {
    uuid: '5d1c6a70-0000-4000-8000-0000000000f1',
    campaign_uuid: REPORT_CAMPAIGN_UUID,
    campaign_name: 'Spring sale',
    type: 'delivery',
    status: 'sent',
    email: 'ada@herald.test',
    row_count: 1234,
    error: null,
    download_url: 'http://localhost/api/2.0/report-downloads/5d1c6a70-0000-4000-8000-0000000000f1?expires=1&signature=abc',
    link_expires_at: '2026-03-09 10:00:00',
    created_at: '2026-03-02 10:00:00',
    updated_at: '2026-03-02 10:00:02',
    ...overrides,
  };
}
