/** What restarting the provisioner printed, when it printed anything. */
export interface RestartReport {
  output: string;
}

/**
 * How the kit restarts the provisioner in the middle of a run: a shell command (--restart-command), or
 * anything else that can (an in-process provisioner restarting itself). `run` resolves once the
 * provisioner is restarting or restarted; it rejects, or sees `signal` abort, when it cannot.
 */
export interface Restart {
  /** Said in the transcript and in messages, e.g. the command. */
  describe: string;
  run(signal: AbortSignal): Promise<RestartReport | void>;
}
