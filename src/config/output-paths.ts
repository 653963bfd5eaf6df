import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

/** The files and the folder a command writes (run, observe, verify); each absent when not asked for. */
export interface CommandOutputs {
  report?: string;
  junit?: string;
  html?: string;
  transcript?: string;
  /** A folder. */
  bundle?: string;
}

/** What each output is, for messages: the flag that asks for it and what it holds. */
export const OUTPUT_KINDS: Readonly<Record<keyof CommandOutputs, { flag: string; what: string }>> = {
  report: { flag: '--report', what: 'the JSON report' },
  junit: { flag: '--junit', what: 'the JUnit report' },
  html: { flag: '--html', what: 'the HTML report' },
  transcript: { flag: '--transcript', what: 'the transcript' },
  bundle: { flag: '--bundle', what: 'the bundle' },
};

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why `path` cannot be written, or undefined when it can as far as can be told before the run: its closest
 * existing folder must be a folder the kit may write in (the writers create the folders in between), and
 * the path itself a file (or a folder, for the bundle) or nothing yet. A full disk shows only when writing.
 */
export function outputPathProblem(path: string, folder: boolean): string | undefined {
  if (path.trim() === '') return 'is empty: give a path';
  const existing = statOf(path);
  if (existing) {
    if (folder && !existing.isDirectory()) return `${path} is a file, not a folder`;
    if (!folder && existing.isDirectory()) return `${path} is a folder, not a file`;
    try {
      accessSync(path, constants.W_OK);
    } catch {
      return `${path} cannot be written (permission denied)`;
    }
    return undefined;
  }
  let parent = dirname(resolve(path));
  for (;;) {
    const stat = statOf(parent);
    if (stat) {
      if (!stat.isDirectory()) return `${parent} is a file, so ${path} cannot be made under it`;
      try {
        accessSync(parent, constants.W_OK);
      } catch {
        return `${parent} cannot be written in (permission denied)`;
      }
      return undefined;
    }
    const up = dirname(parent);
    if (up === parent) return `no folder of ${path} exists`;
    parent = up;
  }
}

/** The outputs asked for, each checked before the run starts: a path that cannot be written is a config error naming its flag. */
export function checkOutputPaths(outputs: CommandOutputs): CommandOutputs {
  const checked: CommandOutputs = {};
  for (const kind of Object.keys(OUTPUT_KINDS) as Array<keyof CommandOutputs>) {
    const path = outputs[kind];
    if (path === undefined) continue;
    const problem = outputPathProblem(path, kind === 'bundle');
    if (problem) throw new ConfigError(OUTPUT_KINDS[kind].flag, problem);
    checked[kind] = path;
  }
  return checked;
}
