/**
 * pass: no MUST rule failed; fail: one did; incomplete: no MUST rule failed, but the run's --time-limit was
 * spent before it ended, or a certify run left a rule not exercised, so nothing can be said about it; unreachable: the target never answered; error: the kit itself failed.
 */
export type Verdict = 'pass' | 'fail' | 'incomplete' | 'unreachable' | 'error';

export type ExitCode = 0 | 1 | 2 | 3;

/** The one table from a run's verdict to the process's exit code. */
export const EXIT_CODES: Readonly<Record<Verdict, ExitCode>> = { pass: 0, fail: 1, incomplete: 1, error: 2, unreachable: 3 };
