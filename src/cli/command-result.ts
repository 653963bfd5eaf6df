/** Commands report their exit code here, since yargs handlers return nothing to the caller. */
export interface CommandResult {
  exitCode: number;
}
