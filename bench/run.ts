/**
 * `npm run bench`: runs every benchmark several times (five by default), each run in a fresh
 * process on a fresh database, and rewrites the results part of BENCHMARKS.md: the machine, Node
 * and PostgreSQL versions, and for each figure its median, min–max, its floor (measured in the same
 * runs), the ratio to the floor and the target.
 *
 *   npm run bench                        every benchmark, 5 runs each, BENCHMARKS.md rewritten
 *   npm run bench -- --runs 3 --only api,send
 *   npm run bench -- --no-write          print only
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatNumber, median, type BenchResult, type Figure, type Target } from './lib/result';

type Bench = { name: string; title: string; file: string; about: string; nodeArgs?: string[] };

const BENCHES: Bench[] = [
  {
    name: 'send',
    title: 'Sending campaigns of 100,000 and 1,000,000 recipients (issues #6 and #16), and 30,000 through the Twilio fake (issue 34)',
    file: 'bench/send.bench.ts',
    about:
      'For each size, a fresh embedded PostgreSQL with a group of that many contacts, one campaign due now, the engine ticking through the simulator gateway (zero latency, its record of each message and its owed receipts in the database), timed from the send time to every receipt written; the first submission, and the campaign summary polled every 100 ms in the same process while it sends. Then a team with one Twilio connection whose base URL is the Twilio fake on loopback (a process of its own, every answer after 50 ms): 30,000 recipients through the engine and the router (started as a worker starts them), timed from the send time to every message handed over and recorded, beside a bare node:http loop sending the same requests to the same fake, 128 in flight (the floor), and the router alone. Node runs as `npm start` runs Herald (64 MiB semi-space).',
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'import',
    title: 'Importing a 1,000,000-row CSV and a 100,000-row workbook (issues #4 and #20)',
    file: 'bench/import.bench.ts',
    about:
      'A 29 MiB CSV (phone number and two custom fields, all numbers distinct) streamed as `text/csv` to `POST /api/2.0/contact-groups/{uuid}/imports` on a real HTTP port, timed from the first byte sent to the answer (every row stored); then a 100,000-row XLSX workbook of the same columns into another group. Node runs as `npm start` runs Herald (64 MiB semi-space).',
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'overview',
    title: 'The overview of a team with 1,000,000 messages (issue #21)',
    file: 'bench/overview.bench.ts',
    about:
      'A team with 1,000,000 messages over the last 90 days, 100,000 inbound messages, 5,000 opt-outs and campaigns scheduled, sending and awaiting approval; `GET /api/2.0/overview` for the 90 days over real HTTP, 200 requests after a warm-up. Node runs as `npm start` runs Herald (64 MiB semi-space).',
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'segments',
    title: 'Counting a segment over 1,000,000 contacts and 5,000,000 messages, and starting a campaign on it (issue 35)',
    file: 'bench/segments.bench.ts',
    about:
      'One group of 1,000,000 contacts (a tenth in London) and 5,000,000 messages of a past campaign over 60 days, written set-based. `POST /api/2.0/segments/count` of a three-condition segment (city equals london, country GB, delivered within 7 days) over real HTTP, median of 5 after a warm-up; then a campaign to that segment alone, due now: the start (audience evaluated and fixed, first 5,000 messages written) timed from the send time. Node runs as `npm start` runs Herald (64 MiB semi-space).',
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'frequency-caps',
    title: "The engine's claim under a frequency cap (issue 36)",
    file: 'bench/frequency-caps.bench.ts',
    about:
      "100,000 contacts, 1,000,000 messages of twenty past campaigns over 28 days and 100,000 flows' marketing messages, written set-based. The engine's claim of 500 messages of a campaign to the group, each batch settled as handed over before the next: median of 20 claims with the team's cap on (4 in 7 days), against the same claims without a cap (the floor). Node runs as `npm start` runs Herald (64 MiB semi-space).",
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'flows',
    title: 'Advancing 100,000 flow runs whose wait ends (issue 36)',
    file: 'bench/flows.bench.ts',
    about:
      "A group of 100,000 contacts and one flow (wait, then send a template rendered with the contact's first name) with a run of each number waiting on the wait, every wait ending at the same moment. The advance the job runner calls (`flowAdvance.advanceDue`: batches of 1,000 runs, each one transaction), started as the waits end, timed until every run's message is queued and every run completed; beside the same rows written by bare set-based SQL (the floor). Node runs as `npm start` runs Herald (64 MiB semi-space).",
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'reports',
    title: 'Reports of a 1,000,000-message campaign (issue #7)',
    file: 'bench/reports.bench.ts',
    about:
      'A sent campaign of 1,000,000 messages as the engine leaves them. Page latency over real HTTP (200 requests per page after a warm-up); the CSV export as the report job writes it; the whole report streamed over HTTP (`….csv`, `….ndjson`) to a client in its own process, beside the export of the same run.',
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'api',
    title: 'API throughput (issue #9)',
    file: 'bench/api.bench.ts',
    about:
      'autocannon in its own process on loopback, 50 connections, 10 s per measure after a 2 s warm-up, with a bearer token; 10,000 templates in the team. Identical concurrent GETs share one read (`config.sharedRead`), so the last two rows also ask for 50 different pages in turn, which cannot be shared.',
    nodeArgs: ['--max-semi-space-size=64'],
  },
  {
    name: 'dashboard',
    title: 'Dashboard speed (issue #9)',
    file: 'bench/dashboard.bench.ts',
    about:
      'The built dashboard served by Herald: its size from the build manifest (gzip, as `npm test` checks it); Lighthouse (desktop preset, performance only) in Debian Chromium on the campaigns list with 1,000 campaigns; keystrokes in the template editor timed in the page with the Performance API.',
    nodeArgs: ['--max-semi-space-size=64'],
  },
];

const START = '<!-- bench:results:start (written by `npm run bench`; edit the notes below the end marker) -->';
const END = '<!-- bench:results:end -->';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** One run of one benchmark in its own Node process; its figures come back through a file. */
async function runOnce(bench: Bench, run: number, runs: number): Promise<BenchResult> {
  const resultFile = path.join(os.tmpdir(), `herald-bench-${bench.name}-${process.pid}-${run}.json`);
  fs.rmSync(resultFile, { force: true });
  console.log(`\n── ${bench.name}, run ${run} of ${runs}`);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [...(bench.nodeArgs ?? []), '--import', 'tsx', bench.file], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULT_FILE: resultFile },
    });
    child.on('error', reject);
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  if (code !== 0 || !fs.existsSync(resultFile)) throw new Error(`${bench.file} failed (exit code ${code})`);
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as BenchResult;
  fs.rmSync(resultFile, { force: true });
  return result;
}

type Summary = {
  figure: Figure;
  values: number[];
  floors: number[];
  ratios: number[];
};

function summarise(results: BenchResult[]): Summary[] {
  const byKey = new Map<string, Summary>();
  for (const result of results) {
    for (const figure of result.figures) {
      let summary = byKey.get(figure.key);
      if (!summary) byKey.set(figure.key, (summary = { figure, values: [], floors: [], ratios: [] }));
      summary.values.push(figure.value);
      if (figure.floor !== undefined) {
        summary.floors.push(figure.floor);
        summary.ratios.push(figure.value / figure.floor);
      }
    }
  }
  return [...byKey.values()];
}

const describeTarget = (target: Target, unit: string) =>
  target.on === 'ratio'
    ? `ratio ${target.op === '>=' ? '≥' : '≤'} ${formatNumber(target.value, 2)}`
    : `${target.op === '>=' ? '≥' : '≤'} ${formatNumber(target.value)} ${unit}`;

function verdict(summary: Summary): string {
  const target = summary.figure.target;
  if (!target) return '';
  const measured = target.on === 'ratio' ? (summary.ratios.length ? median(summary.ratios) : NaN) : median(summary.values);
  const met = target.op === '>=' ? measured >= target.value : measured <= target.value;
  return met ? 'met' : '**not met**';
}

function table(summaries: Summary[]): string {
  const lines = ['| figure | median | min–max | floor (median) | ratio to floor | target | |', '|---|---|---|---|---|---|---|'];
  for (const summary of summaries) {
    const { figure } = summary;
    const show = (value: number) => formatNumber(value, figure.digits);
    const min = Math.min(...summary.values);
    const max = Math.max(...summary.values);
    const floor = summary.floors.length ? `${show(median(summary.floors))} ${figure.unit}` : '—';
    const ratio = summary.ratios.length ? `${formatNumber(median(summary.ratios), 2)}×` : '—';
    const target = figure.target ? describeTarget(figure.target, figure.unit) : '—';
    lines.push(
      `| ${figure.label} | **${show(median(summary.values))}** ${figure.unit} | ${show(min)}–${show(max)} | ${floor} | ${ratio} | ${target} | ${verdict(summary)} |`,
    );
  }
  const floors = [...new Set(summaries.map((summary) => summary.figure.floorLabel).filter(Boolean))];
  if (floors.length) lines.push('', ...floors.map((label) => `Floor: ${label}.`));
  return lines.join('\n');
}

async function main(): Promise<void> {
  const runs = Number(option('runs') ?? 5);
  const only = option('only')?.split(',');
  const write = !process.argv.includes('--no-write');
  const chosen = BENCHES.filter((bench) => !only || only.includes(bench.name));
  if (chosen.length === 0) throw new Error(`--only names none of: ${BENCHES.map((bench) => bench.name).join(', ')}`);

  const sections: string[] = [];
  const meta = new Map<string, string>();
  let failed = false;
  for (const bench of chosen) {
    const results: BenchResult[] = [];
    try {
      for (let run = 1; run <= runs; run++) results.push(await runOnce(bench, run, runs));
    } catch (error) {
      failed = true;
      console.error(`${bench.name}: ${(error as Error).message}`);
    }
    for (const result of results) for (const [key, value] of Object.entries(result.meta ?? {})) meta.set(key, value);
    const summaries = summarise(results);
    const heading = `### ${bench.title}\n\n\`${bench.file}\`: ${bench.about}\n\n`;
    sections.push(
      heading +
        (results.length === runs
          ? table(summaries)
          : `**Failed** after ${results.length} of ${runs} runs; see the run's output.${results.length ? '\n\n' + table(summaries) : ''}`),
    );
    console.log(`\n${table(summaries)}\n`);
  }

  const cpus = os.cpus();
  const machine = [
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`,
    `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    `Linux ${os.release()}`,
    `Node ${process.version}`,
    ...[...meta.values()],
  ].join(', ');
  const generated = [
    START,
    '## Latest figures',
    '',
    `${new Date().toISOString().slice(0, 10)}, \`npm run bench\`: ${runs} runs of each benchmark, each in a fresh process on a fresh database; medians, with the range over the runs. ` +
      `Machine: ${machine}. A floor is the same work done the simplest way, measured in the same runs; the ratio is figure ÷ floor, per run, then the median.`,
    '',
    ...sections.flatMap((section) => [section, '']),
    END,
  ].join('\n');

  if (write && only) console.log('(--only: BENCHMARKS.md is rewritten only for a full run; use the table above)');
  if (write && !only) {
    const file = 'BENCHMARKS.md';
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
    const start = current.indexOf(START);
    const end = current.indexOf(END);
    let next: string;
    if (start >= 0 && end > start) next = current.slice(0, start) + generated + current.slice(end + END.length);
    else {
      const firstBreak = current.indexOf('\n## ');
      next = firstBreak >= 0 ? `${current.slice(0, firstBreak)}\n${generated}\n${current.slice(firstBreak)}` : `${current}\n${generated}\n`;
    }
    fs.writeFileSync(file, next);
    console.log(`BENCHMARKS.md: latest figures rewritten${failed ? ' (with failures)' : ''}.`);
  }
  if (failed) process.exitCode = 1;
}

await main();
