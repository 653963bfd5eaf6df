import type { RunOptions } from '../config/run-options.js';

/**
 * The options of `runConformance`: the run command's long option names in camelCase, with the same
 * meaning and defaults (see `provisioner-conformance run --help`), plus `signal` to stop the run. They are
 * resolved as a command line is (profile, then config file, then these), by the same resolver, without argv.
 */
export interface ConformanceOptions extends RunOptions {
  /** Stops the run: what was not driven is not judged, and the verdict is `error`. */
  signal?: AbortSignal;
}

/**
 * How the command line calls a command of the library: on the terminal, from its process's environment and
 * working folder, with the arguments it was given, which the summary's replay lines repeat.
 */
export interface CommandLineCall {
  /** The process's environment (a plain record: the library's types never need Node's). */
  env: Record<string, string | undefined>;
  cwd: string;
  /** The arguments after the executable's name. */
  invocation: readonly string[];
}
