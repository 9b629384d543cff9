/**
 * XLSX workbooks built by hand with node:zlib, for the tests of what a workbook may unpack to: a
 * part given as repeated chunks deflates to almost nothing, so a "zip bomb" of hundreds of
 * megabytes of XML is a few hundred kilobytes on the wire, and is never held whole in memory here.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A part of the zip: its name, and its content as `chunk` repeated `times` between `before` and `after`. */
export type ZipPart = { name: string; before?: string; chunk?: string; times?: number; after?: string };

const MiB = 1024 * 1024;

type Packed = { name: Buffer; data: Buffer; crc: number; size: number };

async function pack(part: ZipPart): Promise<Packed> {
  // Each piece is deflated apart, ending with a full flush (byte-aligned, no reference to what came
  // before), so the block repeated `times` is deflated once and its output repeated: a valid stream.
  const piece = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: constants.Z_FULL_FLUSH });
  const chunk = part.chunk ?? '';
  const times = part.times ?? 0;
  const perBlock = chunk === '' ? 1 : Math.max(1, Math.floor(MiB / chunk.length));
  const block = Buffer.from(chunk.repeat(perBlock));
  const before = Buffer.from(part.before ?? '');
  const rest = Buffer.from(chunk.repeat(times % perBlock) + (part.after ?? ''));
  const blocks = Math.floor(times / perBlock);
  let crc = crc32(before);
  for (let index = 0; index < blocks; index++) crc = crc32(block, crc);
  crc = crc32(rest, crc);
  const deflated = piece(block);
  const data = Buffer.concat([piece(before), ...Array.from({ length: blocks }, () => deflated), piece(rest), deflateRawSync(Buffer.alloc(0))]);
  return { name: Buffer.from(part.name), data, crc, size: before.length + blocks * block.length + rest.length };
}

/**
 * The zip of `parts`, in that order. With `hideSizes` each local header says nothing of its sizes
 * (flag 3, a data descriptor after the data), as streaming zip writers do: a reader learns the
 * size only by inflating.
 */
export async function zipOf(parts: ZipPart[], options: { hideSizes?: boolean } = {}): Promise<Buffer> {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const packed = await pack(part);
    const hide = options.hideSizes === true;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(hide ? 0x08 : 0, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(hide ? 0 : packed.crc, 14);
    header.writeUInt32LE(hide ? 0 : packed.data.length, 18);
    header.writeUInt32LE(hide ? 0 : packed.size, 22);
    header.writeUInt16LE(packed.name.length, 26);
    const descriptor = Buffer.alloc(hide ? 16 : 0);
    if (hide) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(packed.crc, 4);
      descriptor.writeUInt32LE(packed.data.length, 8);
      descriptor.writeUInt32LE(packed.size, 12);
    }
    local.push(header, packed.name, packed.data, descriptor);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(hide ? 0x08 : 0, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(packed.crc, 16);
    entry.writeUInt32LE(packed.data.length, 20);
    entry.writeUInt32LE(packed.size, 24);
    entry.writeUInt16LE(packed.name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, packed.name);
    offset += header.length + packed.name.length + packed.data.length + descriptor.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, directory, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A workbook of one sheet "Contacts" (a Phone header and `rows` numbers, each a shared string),
 * whose shared strings are followed by `padding` repeated `times` (texts no cell uses, like the
 * 11.8 MB file that unpacked to gigabytes), in the order Excel writes the parts.
 */
export function workbookOf(options: { numbers: string[]; padding?: string; times?: number; hideSizes?: boolean }): Promise<Buffer> {
  const texts = ['Phone', ...options.numbers];
  const cells = texts.map((_, index) => `<row r="${index + 1}"><c r="A${index + 1}" t="s"><v>${index}</v></c></row>`).join('');
  return zipOf(
    [
      {
        name: '[Content_Types].xml',
        before: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
      },
      {
        name: '_rels/.rels',
        before: `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      },
      {
        name: 'xl/workbook.xml',
        before: `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC}"><sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        before: `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      },
      {
        name: 'xl/sharedStrings.xml',
        before: `${XML}<sst xmlns="${MAIN}">${texts.map((text) => `<si><t>${text}</t></si>`).join('')}`,
        chunk: options.padding ?? '',
        times: options.times ?? 0,
        after: '</sst>',
      },
      { name: 'xl/worksheets/sheet1.xml', before: `${XML}<worksheet xmlns="${MAIN}"><sheetData>${cells}</sheetData></worksheet>` },
    ],
    { hideSizes: options.hideSizes },
  );
}
