import { cloneMethod } from 'fast-check';
import { answerText } from '../answer-text.js';
import type { CaseDriver, MalformedId } from '../case-driver.js';
import type { ModelState } from '../model.js';
import { ModelCommand } from './model-command.js';

const MAX_PRINTED = 40;

/** Reads an id that is not a UUID. */
export class ReadMalformedCommand extends ModelCommand {
  constructor(private readonly id: MalformedId) {
    super(`read malformed id ${printable(id.raw)}`);
  }

  check(): boolean {
    return true;
  }

  protected async act(_model: ModelState, driver: CaseDriver): Promise<void> {
    const read = await driver.readMalformed(this.id);
    this.line = `read malformed id ${printable(this.id.raw)} → ${answerText(read)}`;
  }

  [cloneMethod](): ReadMalformedCommand {
    return new ReadMalformedCommand(this.id);
  }
}

// A 300-character id would drown the counterexample; its length says enough.
function printable(raw: string): string {
  return raw.length <= MAX_PRINTED ? JSON.stringify(raw) : `${JSON.stringify(raw.slice(0, MAX_PRINTED))}… (${raw.length} characters)`;
}
