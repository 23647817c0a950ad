import { runMochaIn } from '../support/mocha';

/** Measurements (bench/extension.mjs runs this suite with KERNEL_REVIEW_BENCH_MBOX set). */
export function run(): Promise<void> {
  return runMochaIn(__dirname);
}
