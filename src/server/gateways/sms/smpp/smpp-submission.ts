import { randomInt } from 'node:crypto';
import { classify, segmentsOf } from '../../../../shared/sms';
import type { OutgoingSms } from '../sms-gateway';
import { destinationAddress, sourceAddress } from './smpp-addresses';
import { DATA_CODING, encodeGsm, encodeUcs2 } from './smpp-text';
import { concatenationHeader } from './udh';

/** How a message longer than one SMS travels: concatenated parts with a UDH, or one submit_sm carrying message_payload. */
export type LongMessageMode = 'udh' | 'payload';

/** The fields of one submit_sm, as the smpp library takes them. */
export type SubmitSmFields = Record<string, unknown>;

const ESM_CLASS_UDHI = 0x40;
/** SMSC delivery receipt requested on success and failure (SMPP 3.4 §5.2.17). */
const RECEIPT_REQUESTED = 0x01;

/**
 * The submit_sm PDUs of one message, in order. GSM 03.38 (data_coding 0) when the body fits the
 * alphabet, else UCS-2 (8). Parts split where the dashboard's counter splits them (segmentsOf), so
 * the parts a user was shown are the parts billed. `reference` ties the parts together on the handset.
 */
export function submitSmFor(message: OutgoingSms, long: LongMessageMode, reference: number = randomInt(256)): SubmitSmFields[] {
  const gsm = classify(message.body) !== 'UTF16';
  const encode = gsm ? encodeGsm : encodeUcs2;
  const common = {
    service_type: '',
    ...sourceAddress(message.from),
    ...destinationAddress(message.to),
    registered_delivery: RECEIPT_REQUESTED,
    data_coding: gsm ? DATA_CODING.gsm : DATA_CODING.ucs2,
  };
  const parts = segmentsOf(message.body);
  if (parts.length === 1) return [{ ...common, esm_class: 0, short_message: encode(message.body) }];
  if (long === 'payload') return [{ ...common, esm_class: 0, short_message: Buffer.alloc(0), message_payload: encode(message.body) }];
  return parts.map((part, index) => ({
    ...common,
    esm_class: ESM_CLASS_UDHI,
    short_message: Buffer.concat([concatenationHeader({ reference, total: parts.length, sequence: index + 1 }), encode(part)]),
  }));
}
