import type { AltDeliveryReportRow, CampaignReportListItem, CampaignReportSummary, DeliveryReportRow, ReportJob, SentReportRow } from '../../api/gen/types.gen';
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
    failure_reason: null,
  };
}

/** A delivery row: every fourth failed at the carrier, the rest delivered. */
export function deliveryRow(index: number): DeliveryReportRow {
  const failed = index % 4 === 0;
  return {
    SMS_ID: `0000000${index}-0000-4000-8000-00000000000d`,
    Sender: 'HeraldShop',
    Recipient: `4477009${String(index).padStart(5, '0')}`,
    Message_Copy: `Hi Ada${index}, the spring sale is on`,
    Status: failed ? 'Failed' : 'Success',
    Expiry_Date: '2026-03-03T09:00:00+0000',
    failure_reason: failed ? 'UNDELIV err:001' : null,
    sent_at: '2026-03-02 09:00:05',
    delivered_at: failed ? '' : '2026-03-02 09:00:09',
  };
}

/** A campaign's report summary: 1,000 messages, 950 delivered, 300 people clicked 420 times. */
export function reportSummary(overrides: Partial<CampaignReportSummary> = {}): CampaignReportSummary {
  return {
    campaign_uuid: REPORT_CAMPAIGN_UUID,
    name: 'Spring sale',
    sender: 'HeraldShop',
    status: 2,
    started_sending_at: '2026-03-02 09:00:00',
    finished_sending_at: '2026-03-02 09:20:00',
    messages: 1000,
    sent: 990,
    delivered: 950,
    failed: 30,
    expired: 10,
    pending: 10,
    unsent: 10,
    clicks_total: 480,
    clicks_human: 420,
    clicks_bot: 60,
    unique_human_clickers: 300,
    delivery_rate: 950 / 990,
    click_rate: 300 / 950,
    opt_outs: 12,
    opt_out_rate: 12 / 950,
    ...overrides,
  };
}

/** A campaign as the Reports page lists it (no failed/expired split). */
export function reportListItem(overrides: Partial<CampaignReportListItem> = {}): CampaignReportListItem {
  const { failed: _failed, expired: _expired, ...item } = reportSummary();
  return { ...item, ...overrides };
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
    filters: {},
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
