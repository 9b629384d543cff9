/**
 * What one run of a benchmark reports. Each `*.bench.ts` prints its figures for a person and, when
 * the runner (`bench/run.ts`) sets BENCH_RESULT_FILE, writes them there as JSON; the runner runs each
 * benchmark several times and writes BENCHMARKS.md from the medians.
 */
import fs from 'node:fs';

export interface Target {
  /** What the target is about: the figure itself, or the figure divided by its floor. */
  on: 'value' | 'ratio';
  op: '>=' | '<=';
  value: number;
}

export interface Figure {
  /** Stable key: the runner groups runs by it. */
  key: string;
  label: string;
  unit: string;
  value: number;
  /** The same thing done by the simplest possible means, measured in the same run (same unit). */
  floor?: number;
  /** What the floor is, said once per figure (e.g. "bare node:http, same bytes"). */
  floorLabel?: string;
  target?: Target;
  /** Decimals to show; defaults by size. */
  digits?: number;
}

export interface BenchResult {
  bench: string;
  figures: Figure[];
  /** Versions and sizes worth printing once (e.g. PostgreSQL's version). */
  meta?: Record<string, string>;
}

export function formatNumber(value: number, digits?: number): string {
  const places = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return value.toLocaleString('en-GB', { minimumFractionDigits: places, maximumFractionDigits: places });
}

/** Prints the run's figures and hands them to the runner when it asked for them. */
export function emitResult(result: BenchResult): void {
  for (const figure of result.figures) {
    const floor =
      figure.floor === undefined
        ? ''
        : ` (floor ${formatNumber(figure.floor, figure.digits)} ${figure.unit}, ratio ${formatNumber(figure.value / figure.floor, 2)})`;
    console.log(`${figure.label}: ${formatNumber(figure.value, figure.digits)} ${figure.unit}${floor}`);
  }
  const file = process.env.BENCH_RESULT_FILE;
  if (file) fs.writeFileSync(file, JSON.stringify(result, null, 2));
}

/** Percentile by nearest rank of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
