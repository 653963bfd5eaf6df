import { EXIT_CODES, type ExitCode, type Verdict } from './core/verdict.js';

/**
 * Kit errors: what went wrong in or around the kit, never a verdict about the provisioner. Each has a
 * stable code; the code alone decides the run's verdict and, through it, the exit code.
 */
export type KitErrorCode = 'KIT_USAGE' | 'KIT_CONFIG' | 'KIT_TARGET_UNREACHABLE' | 'KIT_INTERNAL' | 'KIT_RESTART_FAILED' | 'KIT_OUTPUT' | 'KIT_ENVIRONMENT';

/** The one place a kit error becomes a verdict: unreachable is its own verdict (exit 3), the rest are `error` (exit 2). */
const VERDICTS: Readonly<Record<KitErrorCode, Verdict>> = {
  KIT_USAGE: 'error',
  KIT_CONFIG: 'error',
  KIT_TARGET_UNREACHABLE: 'unreachable',
  KIT_INTERNAL: 'error',
  KIT_RESTART_FAILED: 'error',
  KIT_OUTPUT: 'error',
  KIT_ENVIRONMENT: 'error',
};

export function kitErrorVerdict(code: KitErrorCode): Verdict {
  return VERDICTS[code];
}

export function exitCodeOf(code: KitErrorCode): ExitCode {
  return EXIT_CODES[VERDICTS[code]];
}

export abstract class KitError extends Error {
  abstract readonly code: KitErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // `UsageError`, `InternalError`…: what a stack trace names.
    this.name = new.target.name;
  }

  get verdict(): Verdict {
    return kitErrorVerdict(this.code);
  }

  get exitCode(): ExitCode {
    return exitCodeOf(this.code);
  }
}

/** The one hint an error ends with, when it has its own: `(did you mean --poll-interval?)`. */
function withHint(text: string, hint: string | undefined): string {
  return hint === undefined ? text : `${text} (${hint})`;
}

/** A bad flag or argument: one line naming the flag. */
export class UsageError extends KitError {
  readonly code = 'KIT_USAGE';
  constructor(
    /** The flag as written (`--poll-interval`), or `usage` for a command line yargs refused. */
    readonly flag: string,
    readonly detail: string,
    /** What to do about it (`did you mean …?`, `see the rules command`); without one the CLI points to --help. */
    readonly hint?: string,
  ) {
    super(withHint(flag === 'usage' ? detail : `${flag}: ${detail}`, hint));
  }
}

/** A file or setting the kit cannot use (a change set, a registration, a transcript): one line naming the flag that gave it. */
export class ConfigError extends KitError {
  readonly code = 'KIT_CONFIG';
  constructor(
    readonly flag: string,
    readonly detail: string,
    /** What to do about it; without one the CLI points to --help. */
    readonly hint?: string,
  ) {
    super(withHint(`${flag}: ${detail}`, hint));
  }
}

/** An input file (a transcript, a HAR, a registration, a config file, a change set) that cannot be read: the same words for each. */
export function unreadableFile(flag: string, file: string, error: unknown): ConfigError {
  return new ConfigError(flag, `cannot read ${file}: ${environmentCause(error) ?? messageOf(error)}`);
}

/** What a system error code means for a user, in words; undefined for a code that is no fault of the machine the kit runs on. */
const ENVIRONMENT_CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  ENOENT: 'no such file or folder',
  EMFILE: 'too many files open',
  ENFILE: 'too many files open on the system',
  EIO: 'an input/output error of the device',
  EBUSY: 'the device is busy',
};

/** The system error code of an error (ENOSPC, EACCES…) when its cause is the machine the kit runs on. */
export function environmentCause(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code in ENVIRONMENT_CAUSES ? `${ENVIRONMENT_CAUSES[code]} (${code})` : undefined;
}

/** An output the run was asked for (a report, the transcript, the bundle) could not be written; the judgement itself stands. */
export class OutputError extends KitError {
  readonly code = 'KIT_OUTPUT';
  constructor(
    /** The flag that asked for it (`--report`). */
    readonly flag: string,
    readonly file: string,
    cause: unknown,
  ) {
    super(`${flag} ${file}: cannot write it: ${environmentCause(cause) ?? messageOf(cause)}`, { cause });
  }
}

/** The machine the kit runs on refused something (disk full, permissions): not a bug in the kit. */
export class EnvironmentError extends KitError {
  readonly code = 'KIT_ENVIRONMENT';
}

/** A bug in the kit (a judge or a case that threw): never blamed on the provisioner. */
export class InternalError extends KitError {
  readonly code = 'KIT_INTERNAL';
}

/** The restart of the provisioner (a command, or the in-process reference) failed or timed out: what it was to show cannot be judged. */
export class RestartFailedError extends KitError {
  readonly code = 'KIT_RESTART_FAILED';
  constructor(
    message: string,
    /** What the restart printed, for the user to see why. */
    readonly output: string = '',
  ) {
    // One line whatever the command printed: its output follows with its line breaks marked.
    super(output.trim() === '' ? message : `${message}; its output: ${output.trim().replace(/\s*\n\s*/g, ' ⏎ ')}`);
  }
}

/** The message of anything thrown, for one line of text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
