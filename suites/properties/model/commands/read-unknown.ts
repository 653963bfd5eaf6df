import { cloneMethod } from 'fast-check';
import { answerText } from '../answer-text.js';
import type { CaseDriver } from '../case-driver.js';
import type { ModelState } from '../model.js';
import { ModelCommand } from './model-command.js';

/** Reads a random UUID the provisioner never issued to this case. */
export class ReadUnknownCommand extends ModelCommand {
  constructor(private readonly id: string) {
    super(`read unknown id ${id}`);
  }

  check(model: Readonly<ModelState>): boolean {
    return !model.operations.some((op) => op.id === this.id);
  }

  protected async act(_model: ModelState, driver: CaseDriver): Promise<void> {
    const read = await driver.readUnknown(this.id);
    this.line = `read unknown id ${this.id} → ${answerText(read)}`;
  }

  [cloneMethod](): ReadUnknownCommand {
    return new ReadUnknownCommand(this.id);
  }
}
