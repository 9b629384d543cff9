import smpp from 'smpp';

let applied = false;

/**
 * Makes the smpp library hand over `short_message` and `message_payload` as the bytes on the wire.
 * Its own text filter decodes data_coding 0 *and* 1 (IA5) with its GSM table, decodes each
 * concatenated part on its own (so a surrogate pair or escape split across parts is lost) and
 * turns unknown bytes into spaces; Herald encodes and decodes itself (src/shared/sms tables).
 * This goes through the library's public `addCommand`/`addTLV`, which are process-wide: every
 * smpp session in the process (the gateway, the test peer) then deals in raw bytes.
 */
export function useRawMessageFields(): void {
  if (applied) return;
  applied = true;
  for (const command of ['submit_sm', 'deliver_sm']) {
    const definition = smpp.commands[command];
    if (!definition?.params?.short_message) throw new Error(`smpp library: ${command} has no short_message parameter (unsupported version?)`);
    smpp.addCommand(command, { ...definition, params: { ...definition.params, short_message: { type: smpp.types.buffer } } });
  }
  smpp.addTLV('message_payload', { id: 0x0424, type: smpp.types.tlv.buffer });
}
