import type { ProgressStream } from '../report/progress.js';

/** How a run (and, beside it, an observation) talks to the world: the CLI's terminal, or nothing at all for a library caller. */
export interface KitIo {
  /** Live progress on stderr, the summary on stdout, SIGINT and SIGTERM stop the run. */
  console: boolean;
  /** Stops the run (a library caller's own stop); with `console`, SIGINT and SIGTERM stop it too. */
  signal?: AbortSignal;
  /** Where the console's summary and progress go; process.stdout and process.stderr unless given (tests). */
  stdout?: ProgressStream;
  stderr?: ProgressStream;
  /** The command line the run came from, so that the summary's replay lines repeat it. */
  invocation?: readonly string[];
}
