import type { ReportRow, ReportType } from '../../../shared/contract';

/** How a cell shows its value; `fields` pairs a names column with its values column. */
export type CellKind = 'text' | 'id' | 'phone' | 'message' | 'status' | 'time' | 'offset-time' | 'count' | 'detail' | 'reason';

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
 * The six reports as the dashboard shows them: readable headers, the recipient's number first and
 * identifiers last. Every CSV column (REPORT_COLUMNS) appears once, but for the delivery report's
 * sender and expiry (the same on every row: the campaign's) which the table leaves out; the delivery
 * reports also show the fields the API adds beside the CSV's (why a message failed, when it was
 * sent and delivered).
 */
export const REPORT_DEFINITIONS: { [T in ReportType]: ReportDefinition<T> } = {
  delivery: {
    label: 'Delivery',
    description: 'One row per message: whether it was delivered, when it was sent and delivered, and why not when it failed.',
    columns: [
      { header: 'Recipient', kind: 'phone', key: 'Recipient' },
      { header: 'Status', kind: 'status', key: 'Status' },
      { header: 'Sent at', kind: 'time', key: 'sent_at' },
      { header: 'Delivered at', kind: 'time', key: 'delivered_at' },
      { header: 'Failure reason', kind: 'reason', key: 'failure_reason' },
      { header: 'Message', kind: 'message', key: 'Message_Copy' },
      { header: 'Message ID', kind: 'id', key: 'SMS_ID' },
    ],
  },
  alt_delivery: {
    label: 'Delivery with fields',
    description: 'One row per message with the recipient’s custom fields: its status, when it was sent and last updated, and why it failed.',
    columns: [
      { header: 'Mobile', kind: 'phone', key: 'Mobile' },
      { header: 'Status', kind: 'status', key: 'Status' },
      { header: CUSTOM_FIELDS, kind: 'fields', names: 'FieldNames', values: 'FieldValues' },
      { header: 'Sent at', kind: 'time', key: 'MessageSent' },
      { header: 'Updated at', kind: 'time', key: 'MessageUpdate' },
      { header: 'Failure reason', kind: 'reason', key: 'failure_reason' },
      { header: 'Message ID', kind: 'id', key: 'MessageId' },
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
    label: 'Send details',
    description: 'One row per send of the campaign: its sender, when it started, how many messages, and the template.',
    columns: [
      { header: 'Sender', kind: 'text', key: 'Brand' },
      { header: 'Sent at', kind: 'time', key: 'SentOn' },
      { header: 'Recipients', kind: 'count', key: 'RecipientCount' },
      { header: 'Template', kind: 'text', key: 'TemplateName' },
      { header: 'Message', kind: 'message', key: 'Message' },
      { header: 'Template ID', kind: 'id', key: 'TemplateApiId' },
      { header: 'Send ID', kind: 'id', key: 'MessageId' },
    ],
  },
  unsent: {
    label: 'Not sent',
    description:
      'One row per message never sent: the campaign expired or was stopped first, the number opted out meanwhile, or quiet hours lasted past the expiry.',
    columns: [
      { header: 'Mobile', kind: 'phone', key: 'Mobile' },
      { header: 'Reason', kind: 'reason', key: 'Reason' },
      { header: CUSTOM_FIELDS, kind: 'fields', names: 'FieldNames', values: 'FieldValues' },
      { header: 'Message ID', kind: 'id', key: 'MessageId' },
    ],
  },
  clicks: {
    label: 'Clicks',
    description:
      'One row per click on a tracked link of the message, in the order the clicks came; a link preview fetched by a chat app shows as the device “bot”.',
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

/** CSV columns a report's table leaves out on purpose: the same on every row. */
export const COLUMNS_NOT_SHOWN: Partial<Record<ReportType, string[]>> = { delivery: ['Sender', 'Expiry_Date'] };

/** The CSV columns a table column shows (two for the custom fields). */
export function csvColumnsOf(column: ReportColumn<Record<string, unknown>>): string[] {
  return column.kind === 'fields' ? [column.names, column.values] : [column.key];
}

export function reportHeaders(type: ReportType): string[] {
  return REPORT_DEFINITIONS[type].columns.map((column) => column.header);
}
