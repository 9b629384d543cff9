/**
 * autocannon over a list of paths, one after the other per request, for reads that must not be
 * identical (so none can be answered together). Prints autocannon's JSON summary like its CLI's
 * `--json`. Run: `node --import tsx bench/lib/autocannon-paths.ts <origin> <paths.json> <seconds> <connections> <headers.json>`.
 */
import { createRequire } from 'node:module';

type Summary = Record<string, unknown>;
type Autocannon = (options: Record<string, unknown>) => Promise<Summary>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const [origin, pathsJson, seconds, connections, headersJson] = process.argv.slice(2) as [string, string, string, string, string];
const paths = JSON.parse(pathsJson) as string[];
let next = 0;
const summary = await autocannon({
  url: origin,
  connections: Number(connections),
  duration: Number(seconds),
  headers: JSON.parse(headersJson) as Record<string, string>,
  requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, path: paths[next++ % paths.length] }) }],
});
process.stdout.write(JSON.stringify(summary));
