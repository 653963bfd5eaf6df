import { cloneMethod } from 'fast-check';
import type { CaseDriver } from '../case-driver.js';
import type { ModelState } from '../model.js';
import { ModelCommand } from './model-command.js';

/** Lets time pass, so that work can end between reads. */
export class WaitCommand extends ModelCommand {
  constructor(private readonly ms: number) {
    super(`wait ${ms}ms`);
  }

  check(): boolean {
    return true;
  }

  protected async act(_model: ModelState, driver: CaseDriver): Promise<void> {
    await driver.wait(this.ms);
  }

  [cloneMethod](): WaitCommand {
    return new WaitCommand(this.ms);
  }
}
