import { listSort } from './common';

/**
 * What each list can be ordered by with `sort` (Herald extension; docs/api-conventions.md, Lists),
 * in one table: the fields, and the order the list keeps without `sort`. A field is the answer's own
 * name for it. Names sort without regard to case. Lists of numbers sort by number alone: a group can
 * hold millions, and the number is what their index keeps in order.
 */
export const CAMPAIGN_SORT = listSort(['created_at', 'updated_at', 'name', 'scheduled_send_date'], '-created_at');
export const TEMPLATE_SORT = listSort(['created_at', 'updated_at', 'name'], '-created_at');
export const SENDER_SORT = listSort(['created_at', 'sender'], '-created_at');
export const KEYWORD_SORT = listSort(['created_at', 'keyword'], '-created_at');
export const WEBHOOK_SORT = listSort(['created_at', 'name'], '-created_at');
export const CONTACT_GROUP_SORT = listSort(['created_at', 'updated_at', 'name'], '-created_at');
export const CONTACT_SORT = listSort(['phone_number'], 'phone_number');
export const DIRECTORY_CONTACT_SORT = listSort(['phone_number'], 'phone_number');
export const INBOUND_MESSAGE_SORT = listSort(['received_at'], '-received_at');
export const OPT_OUT_EVENT_SORT = listSort(['created_at'], '-created_at');
export const AUDIT_EVENT_SORT = listSort(['created_at'], '-created_at');
export const MEMBER_SORT = listSort(['name', 'email', 'joined_at'], 'name');
export const TOKEN_SORT = listSort(['created_at', 'name'], '-created_at');
export const SEGMENT_SORT = listSort(['created_at', 'updated_at', 'name'], '-created_at');
