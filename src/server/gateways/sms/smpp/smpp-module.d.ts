/**
 * The parts of `smpp@0.5.1` (farhadi/node-smpp, no bundled types) that Herald uses. PDU fields are
 * read by name, so a PDU is typed loosely; the gateway narrows the fields it reads.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A decoded PDU: header fields plus one property per mandatory parameter and TLV present. */
  interface Pdu {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): Pdu;
    [field: string]: unknown;
  }

  interface PduConstructor {
    new (command: string, options?: Record<string, unknown>): Pdu;
  }

  type ResponseCallback = (pdu: Pdu) => void;

  interface Session extends EventEmitter {
    readonly socket: Socket;
    /** False (and no callback, ever) when the socket is no longer writable. */
    send(pdu: Pdu, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  interface Server extends NetServer {
    readonly sessions: Session[];
  }

  interface FieldType {
    read(buffer: Buffer, offset: number, length?: number): unknown;
    write(value: unknown, buffer: Buffer, offset: number): void;
    size(value: unknown): number;
  }

  interface CommandDefinition {
    id: number;
    params?: Record<string, { type: FieldType; default?: unknown; filter?: unknown }>;
    [key: string]: unknown;
  }

  interface SmppModule {
    connect(options: { host: string; port: number }): Session;
    createServer(listener: (session: Session) => void): Server;
    addCommand(command: string, definition: CommandDefinition): void;
    addTLV(tag: string, definition: { id: number; type: FieldType; multiple?: boolean }): void;
    readonly PDU: PduConstructor;
    readonly commands: Record<string, CommandDefinition>;
    /** TLV definitions by name: a PDU property with one of these names is a TLV. */
    readonly tlvs: Record<string, { id: number }>;
    readonly types: Record<'int8' | 'int16' | 'int32' | 'cstring' | 'buffer', FieldType> & { tlv: Record<'int8' | 'cstring' | 'buffer', FieldType> };
    /** Command status names by value, e.g. `ESME_RTHROTTLED: 0x58`. */
    readonly errors: Record<string, number>;
    /** The library's own GSM 03.38 coder; the test peer decodes with it as an independent check of ours. */
    readonly gsmCoder: { encode(text: string, table: number): Buffer; decode(bytes: Buffer, table: number): string };
  }

  const smpp: SmppModule;
  export default smpp;
  export type { Pdu, Server, Session };
}
