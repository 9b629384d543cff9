/**
 * Vite plugin: after the dashboard is built, writes a brotli (`.br`) and a gzip (`.gz`) copy beside
 * every text asset worth compressing, so the service sends them without compressing per request
 * (@fastify/static `preCompressed`). Node's zlib only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)])));
  return nested.flat();
}

export async function compressAssets(dir: string): Promise<number> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  let written = 0;
  await Promise.all(
    files.map(async (file) => {
      const content = await fs.readFile(file);
      if (content.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
        gzip(content, { level: 9 }),
      ]);
      // A copy that saves nothing is left out: the original is sent.
      if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
      if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz);
      written += 1;
    }),
  );
  return written;
}

export function compressedAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'herald-compressed-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await compressAssets(outDir);
    },
  };
}
