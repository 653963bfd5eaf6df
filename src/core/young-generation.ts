import { setFlagsFromString } from 'node:v8';

const KEEP_SMALL = '--semi-space-growth-factor=1';

/** Whether this process keeps its young generation small: set once by the command line, read by `keepItSmallAfterAThreadStarted`. */
let keptSmall = false;

/**
 * Keeps V8's young generation at its start size in the kit's own process, unless the user set its size.
 * Every answer read leaves short-lived garbage, and at the pace of a run V8 grows the young generation to
 * 32 MB, memory the process keeps to its end: a default run peaked some 12 MB higher for it, a run against
 * long answers 25 MB. The extra scavenges cost a few per cent of CPU. Only the command line calls this: a
 * program that uses the kit as a library keeps its own settings. Returns whether it set the flag.
 */
export function keepYoungGenerationSmall(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (/semi[-_]space/.test(`${execArgv.join(' ')} ${nodeOptions}`)) return false;
  // Read by V8 each time the young generation would grow, so it holds when set after start-up.
  setFlags(KEEP_SMALL);
  keptSmall = true;
  return true;
}

/**
 * Sets the young generation's growth again once a worker thread's heap exists: V8 sets the flag back to its
 * default while it builds a new heap, and every heap of the process, the main thread's too, then grows to 32 MB
 * (measured: an observer's proxy and judges held 64 MB of young generation where they needed 4). Does nothing
 * in a process that did not keep its young generation small.
 */
export function keepItSmallAfterAThreadStarted(setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (!keptSmall) return false;
  setFlags(KEEP_SMALL);
  return true;
}
