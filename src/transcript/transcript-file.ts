import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { JudgeContext } from '../rules/types.js';
import type { Exchange, TranscriptEvent } from './exchange.js';
import { Transcript } from './transcript.js';

/** A transcript saved to disk with the context it was judged in, so rules can judge it again offline. */
export interface TranscriptFile {
  format: 'provisioner-conformance/transcript@1';
  context: JudgeContext;
  exchanges: Exchange[];
  events: TranscriptEvent[];
}

export async function writeTranscriptFile(path: string, exchanges: readonly Exchange[], events: readonly TranscriptEvent[], context: JudgeContext): Promise<void> {
  const file: TranscriptFile = {
    format: 'provisioner-conformance/transcript@1',
    context,
    exchanges: [...exchanges],
    events: [...events],
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 1)}\n`);
}

export async function readTranscriptFile(path: string): Promise<{ transcript: Transcript; context: JudgeContext }> {
  const file = JSON.parse(await readFile(path, 'utf8')) as TranscriptFile;
  if (file.format !== 'provisioner-conformance/transcript@1') throw new Error(`${path} is not a transcript file of this kit`);
  return { transcript: new Transcript(file.exchanges, file.events), context: file.context };
}
