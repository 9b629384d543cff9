import type { ReportRow, ReportType } from '../../../shared/contract';

/** How a cell shows its value; `fields` pairs a names column with its values column. */
export type CellKind = 'text' | 'id' | 'phone' | 'message' | 'status' | 'time' | 'offset-time' | 'count' | 'detail';

type Key<Row> = keyof Row & string;

export type ReportColumn<Row> = { header: string; kind: CellKind; key: Key<Row> } | { header: string; kind: 'fields'; names: Key<Row>; values: Key<Row> };

export interface ReportDefinition<T extends ReportType> {
  /** The tab's label. */
  label: string;
  /** One line under the tabs: what a row is. */
  description: string;
  columns: ReportColumn<ReportRow<T>>[];
}

const CUSTOM_FIELDS = 'Custom fields';

/**
 * The six reports as the dashboard shows them: readable headers over the CSV columns
 * (REPORT_COLUMNS), in the same order; every CSV column appears once.
 */
export const REPORT_DEFINITIONS: { [T in ReportType]: ReportDefinition<T> } = {
  delivery: {
    label: 'Delivery',
    description: 'One row per message: the copy the handset received and whether it was delivered.',
    columns: [
      { header: 'Message ID', kind: 'id', key: 'SMS_ID' },
      { header: 'Sender', kind: 'text', key: 'Sender' },
      { header: 'Recipient', kind: 'phone', key: 'Recipient' },
      { header: 'Message', kind: 'message', key: 'Message_Copy' },
      { header: 'Status', kind: 'status', key: 'Status' },
      { header: 'Expires at', kind: 'offset-time', key: 'Expiry_Date' },
    ],
  },
  alt_delivery: {
    label: 'Alternative delivery',
    description: 'One row per message: the recipient’s custom fields, when it was sent and last updated, and its status.',
    columns: [
      { header: 'Message ID', kind: 'id', key: 'MessageId' },
      { header: 'Mobile', kind: 'phone', key: 'Mobile' },
      { header: CUSTOM_FIELDS, kind: 'fields', names: 'FieldNames', values: 'FieldValues' },
      { header: 'Sent at', kind: 'time', key: 'MessageSent' },
      { header: 'Updated at', kind: 'time', key: 'MessageUpdate' },
      { header: 'Status', kind: 'status', key: 'Status' },
    ],
  },
  recipient: {
    label: 'Recipients',
    description: 'One row per recipient: the group the number was taken from and its custom fields.',
    columns: [
      { header: 'Phone number', kind: 'phone', key: 'Phone_Number' },
      { header: 'Group', kind: 'text', key: 'Group_Name' },
      { header: 'Group description', kind: 'detail', key: 'Group_Description' },
      { header: CUSTOM_FIELDS, kind: 'fields', names: 'Field_Names', values: 'Field_Values' },
    ],
  },
  sent: {
    label: 'Sent',
    description: 'One row per send of the campaign: its sender, when it started, how many messages, and the template.',
    columns: [
      { header: 'Send ID', kind: 'id', key: 'MessageId' },
      { header: 'Sender', kind: 'text', key: 'Brand' },
      { header: 'Sent at', kind: 'time', key: 'SentOn' },
      { header: 'Recipients', kind: 'count', key: 'RecipientCount' },
      { header: 'Template ID', kind: 'id', key: 'TemplateApiId' },
      { header: 'Template', kind: 'text', key: 'TemplateName' },
      { header: 'Message', kind: 'message', key: 'Message' },
    ],
  },
  unsent: {
    label: 'Unsent',
    description:
      'One row per message never sent: the campaign expired or was stopped first, the number opted out meanwhile, or quiet hours lasted past the expiry.',
    columns: [
      { header: 'Message ID', kind: 'id', key: 'MessageId' },
      { header: 'Mobile', kind: 'phone', key: 'Mobile' },
      { header: CUSTOM_FIELDS, kind: 'fields', names: 'FieldNames', values: 'FieldValues' },
      { header: 'Reason', kind: 'text', key: 'Reason' },
    ],
  },
  clicks: {
    label: 'Clicks',
    description: 'One row per click on a tracked link of the message, in the order the clicks came.',
    columns: [
      { header: 'Phone number', kind: 'phone', key: 'Phone_Number' },
      { header: 'Link', kind: 'text', key: 'Link_Name' },
      { header: 'Destination', kind: 'detail', key: 'Link_Destination' },
      { header: 'Clicked at', kind: 'time', key: 'Clicked_At' },
      { header: 'User agent', kind: 'detail', key: 'User_Agent' },
      { header: 'Device', kind: 'detail', key: 'Device_Type' },
      { header: 'Operating system', kind: 'detail', key: 'OS_Version' },
      { header: 'Browser', kind: 'detail', key: 'Browser_Version' },
    ],
  },
};

/** The CSV columns a table column shows (two for the custom fields). */
export function csvColumnsOf(column: ReportColumn<Record<string, unknown>>): string[] {
  return column.kind === 'fields' ? [column.names, column.values] : [column.key];
}

export function reportHeaders(type: ReportType): string[] {
  return REPORT_DEFINITIONS[type].columns.map((column) => column.header);
}
