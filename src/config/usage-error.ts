/** A bad flag, file or setting: reported as one line naming the flag, exit code 2. */
export class UsageError extends Error {
  constructor(
    readonly flag: string,
    detail: string,
  ) {
    super(`${flag}: ${detail}`);
    this.name = 'UsageError';
  }
}
