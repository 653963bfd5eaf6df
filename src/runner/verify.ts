import { kitIdentity } from '../config/package-paths.js';
import { judgeRules, type RuleSelection } from '../rules/index.js';
import { readTranscriptFile } from '../transcript/transcript-file.js';
import { conclusionsFor } from './conclusions.js';
import type { RunOutcome } from './outcome.js';
import { EXIT_CODES, decideVerdict, summarize } from './verdict.js';

/** Judges a transcript written by `run --transcript` again, offline: no request is sent. */
export async function verifyTranscript(path: string, selection: RuleSelection): Promise<RunOutcome> {
  const { transcript, context } = await readTranscriptFile(path);
  const rules = judgeRules(transcript, context, selection);
  const verdict = decideVerdict(rules, transcript);
  const first = transcript.exchanges[0];
  const url = first ? new URL(first.request.url).origin : '(no exchange recorded)';
  return {
    kit: kitIdentity(),
    target: { url },
    startedAt: context.startedAt,
    finishedAt: Math.max(context.startedAt, ...transcript.exchanges.map((exchange) => exchange.endedAt)),
    verdict,
    exitCode: EXIT_CODES[verdict],
    summary: summarize(rules),
    rules,
    conclusions: [`judged again offline from ${path}`, ...conclusionsFor(transcript, context, verdict, url)],
    operations: [],
    properties: [],
    settings: {
      pollIntervalMs: context.pollIntervalMs,
      answerTimeoutMs: context.answerTimeoutMs,
      maxOperationDuration: context.maxOperationDuration,
      changesPointer: '',
      planOnly: context.planOnly,
      strict: selection.strict ?? false,
      showSecrets: false,
      changeSets: context.changeSets.map((changeSet) => changeSet.file ?? changeSet.name),
    },
    context,
    transcript,
  };
}
