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
