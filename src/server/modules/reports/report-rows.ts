import type {
  ClicksReportRow,
  DeliveryStatus,
  RecipientReportRow,
  ReportCsvRow,
  ReportRow,
  ReportType,
  SentReportRow,
  UnsentReportRow,
} from '../../../shared/contract';
import { formatIsoWithOffset, localTimestampFormatter } from '../../../shared/time/local-timestamps';
import { carriedBy } from '../../lib/message-connections';
import type { ClickRow, MessageRow, ReportCampaign } from './report-reads.repository';

/**
 * The delivery reports' `Status` (docs/api-conventions.md): a receipt said delivered → `Success`; still
 * on its way → `Pending`; refused, failed or not sent to an opted-out number → `Failed`; not delivered
 * or not sent before the expiry → `Expired`.
 */
export function deliveryStatus(message: Pick<MessageRow, 'status' | 'reason'>): DeliveryStatus {
  switch (message.status) {
    case 'delivered':
      return 'Success';
    case 'queued':
    case 'submitted':
      return 'Pending';
    case 'unsent':
      // Never sent: the campaign expired first (`pending`), or the number opted out meanwhile.
      return message.reason === 'pending' ? 'Expired' : 'Failed';
    default:
      return message.reason === 'Expired' ? 'Expired' : 'Failed';
  }
}

/**
 * Custom field names and values as two comma-joined strings, by position, in the order of the group's
 * headers (fields the headers do not name follow). The order is worked out once per set of keys.
 */
export function createFieldLists() {
  const orders = new Map<string, { names: string[]; joined: string }>();
  return (customFields: Record<string, string> | null, headers: string[] | undefined): { names: string; values: string } => {
    if (!customFields) return { names: '', values: '' };
    const present = Object.keys(customFields);
    const signature = `${headers?.join('\u0000') ?? ''}\u0001${present.join('\u0000')}`;
    let order = orders.get(signature);
    if (!order) {
      const names = headers ? [...headers.filter((h) => h in customFields), ...present.filter((k) => !headers.includes(k))] : present;
      order = { names, joined: names.join(',') };
      if (orders.size > 10_000) orders.clear();
      orders.set(signature, order);
    }
    let values = '';
    for (let i = 0; i < order.names.length; i++) values += (i === 0 ? '' : ',') + (customFields[order.names[i]!] ?? '');
    return { names: order.joined, values };
  };
}

type Groups = ReportCampaign['groups'];

/**
 * Why a message was not delivered, as the engine stored it (the carrier's status, `Expired`,
 * `opted_out`…); null while it may still be, and once it was. An unsent message without a reason is
 * `pending`, as the unsent report says.
 */
export function failureReason(message: Pick<MessageRow, 'status' | 'reason'>): string | null {
  switch (message.status) {
    case 'delivered':
    case 'queued':
    case 'submitted':
      return null;
    case 'unsent':
      return message.reason ?? 'pending';
    default:
      return message.reason;
  }
}

/** Report rows (the CSV's columns) made from the engine's rows; every column a string unless the API says otherwise. */
export function reportRowBuilders(campaign: ReportCampaign, timeZone: string, groups: Groups = campaign.groups) {
  const expiry = formatIsoWithOffset(campaign.expiryDate, timeZone);
  const format = localTimestampFormatter(timeZone);
  const time = (epochMs: number | null) => (epochMs === null ? '' : format(epochMs));
  const fieldLists = createFieldLists();
  const headersOf = (m: MessageRow) => (m.contact_group_id === null ? undefined : groups.get(Number(m.contact_group_id))?.headers);
  return {
    delivery: (m: MessageRow): ReportCsvRow<'delivery'> => ({
      SMS_ID: m.uuid,
      // An A/B test's variant may send from its own sender.
      Sender: (m.variant === null ? undefined : campaign.variants[m.variant]?.sender) ?? campaign.sender,
      Recipient: m.phone_number,
      Message_Copy: m.body ?? '',
      Status: deliveryStatus(m),
      Expiry_Date: expiry,
    }),
    alt_delivery: (m: MessageRow): ReportCsvRow<'alt_delivery'> => {
      const fields = fieldLists(m.custom_fields, headersOf(m));
      return {
        MessageId: m.uuid,
        Mobile: m.phone_number,
        FieldNames: fields.names,
        FieldValues: fields.values,
        MessageSent: time(m.submitted_at),
        MessageUpdate: time(m.finished_at ?? m.submitted_at),
        Status: deliveryStatus(m),
      };
    },
    recipient: (m: MessageRow): RecipientReportRow => {
      const group = m.contact_group_id === null ? undefined : groups.get(Number(m.contact_group_id));
      const fields = fieldLists(m.custom_fields, group?.headers);
      return {
        Phone_Number: m.phone_number,
        Group_Name: group?.name ?? '',
        Group_Description: group?.description ?? null,
        Field_Names: fields.names,
        Field_Values: fields.values,
      };
    },
    unsent: (m: MessageRow): UnsentReportRow => {
      const fields = fieldLists(m.custom_fields, headersOf(m));
      return { MessageId: m.uuid, Mobile: m.phone_number, FieldNames: fields.names, FieldValues: fields.values, Reason: m.reason ?? 'pending' };
    },
    clicks: (c: ClickRow): ClicksReportRow => ({
      Phone_Number: c.phone_number,
      Link_Name: c.link_name,
      Link_Destination: c.destination,
      Clicked_At: time(c.clicked_at),
      User_Agent: c.user_agent ?? '',
      Device_Type: c.device_type ?? '',
      OS_Version: c.os_version ?? '',
      Browser_Version: c.browser_version ?? '',
    }),
    sent: (): SentReportRow => ({
      MessageId: campaign.uuid,
      Brand: campaign.sender,
      SentOn: campaign.startedSendingAt ?? '',
      RecipientCount: campaign.messageCount,
      TemplateApiId: campaign.templateUuid,
      TemplateName: campaign.templateName,
      Message: campaign.templateBody,
    }),
  } satisfies { [T in ReportType]: (row: never) => ReportCsvRow<T> };
}

/**
 * The JSON rows' fields beyond the CSV's columns (Herald extensions): the delivery reports say why a
 * message failed and which connection carried it, and the delivery report when it was sent and
 * delivered. Never written to the CSV.
 */
export function reportRowExtensions(timeZone: string, variants: ReportCampaign['variants'] = []) {
  const format = localTimestampFormatter(timeZone);
  const time = (epochMs: number | null) => (epochMs === null ? '' : format(epochMs));
  return {
    delivery: (m: MessageRow): Omit<ReportRow<'delivery'>, keyof ReportCsvRow<'delivery'>> => ({
      failure_reason: failureReason(m),
      sent_at: time(m.submitted_at),
      delivered_at: m.status === 'delivered' ? time(m.finished_at) : '',
      // Only on an A/B campaign's rows, so those of every other campaign stay as they were (like `connection`).
      ...(variants.length > 0 ? { variant: m.variant === null ? null : (variants[m.variant]?.name ?? null) } : {}),
      ...carriedBy(m),
    }),
    alt_delivery: (m: MessageRow): Omit<ReportRow<'alt_delivery'>, keyof ReportCsvRow<'alt_delivery'>> => ({
      failure_reason: failureReason(m),
      ...carriedBy(m),
    }),
  };
}

/** How many rows a report has: kept as counters on the campaign, so a page never counts. */
export function reportTotal(campaign: ReportCampaign, type: ReportType): number {
  if (campaign.status === 0) return 0;
  switch (type) {
    case 'sent':
      return 1;
    case 'unsent':
      return campaign.unsentCount;
    case 'clicks':
      return campaign.clickCount;
    default:
      return campaign.messageCount;
  }
}
