import { resolveHarConfig, resolveVerifyConfig, type VerifyOptions } from '../config/verify-config.js';
import type { ExitCode } from '../core/verdict.js';
import { judgeRecording, verify } from '../kit/verify.js';
import { SecretMask } from '../report/secret-mask.js';
import type { BundleCheck } from '../runner/verify-bundle.js';
import { maskedError } from './library-secrets.js';
import { maskedReport, type Report } from './masked-report.js';
import type { CommandLineCall } from './options.js';

export type { VerifyOptions } from '../config/verify-config.js';
export { verifyTranscriptFile as verifyTranscript } from '../observe/verify-transcript.js';
export { verifyBundle, type BundleCheck, type BundleProblem } from '../runner/verify-bundle.js';

/** The options of `verifyRecording`: verify's, for a transcript file or a bundle folder. */
export type VerifyRecordingOptions = Omit<VerifyOptions, 'har' | 'registration' | 'maxOperationDuration' | 'changesPath' | 'recordChangeSets'> & { transcript: string };

/** The options of `verifyHarFile`: verify --har's, for traffic recorded in a HAR 1.2 file. */
export type VerifyHarOptions = Omit<VerifyOptions, 'transcript' | 'har'> & { har: string };

/** What `verifyRecording` found: the report of a transcript judged again, or the check of a bundle. */
export type RecordingVerdict = { kind: 'judged'; report: Report } | { kind: 'bundle'; check: BundleCheck };

/**
 * Judges a transcript again, offline, or checks a bundle (its hashes, and that its verdict follows from its
 * transcript), as `provisioner-conformance verify` does, without printing anything; writes the reports asked
 * for. Rejects with a `KitError` for bad options and for an output it could not write.
 */
export async function verifyRecording(options: VerifyRecordingOptions): Promise<RecordingVerdict> {
  return maskingErrors(options, async () => {
    const result = await verify(await resolveVerifyConfig(options), { console: false });
    if (result.kind === 'bundle') return { kind: 'bundle', check: result.check };
    const [missing] = result.missingOutputs;
    if (missing) throw missing.error;
    return { kind: 'judged', report: maskedReport(result.outcome, result.shown) };
  });
}

/**
 * Judges the traffic a HAR 1.2 file recorded as `observe` judges live traffic, as `provisioner-conformance
 * verify --har` does, without printing anything; writes the reports asked for. Rejects with a `KitError` for
 * bad options, a file it cannot read and an output it could not write.
 */
export async function verifyHarFile(options: VerifyHarOptions): Promise<Report> {
  return maskingErrors(options, async () => {
    const result = await judgeRecording(await resolveHarConfig(options), { console: false });
    const [missing] = result.missingOutputs;
    if (missing) throw missing.error;
    return maskedReport(result.outcome, result.shown);
  });
}

/**
 * `provisioner-conformance verify` on the terminal: judges the transcript or HAR file again (or checks the
 * bundle), writes the reports asked for, prints what it found and resolves to the exit code. A rejection is the
 * caller's to mask and print.
 */
export async function verifyOnConsole(options: VerifyOptions, call: Pick<CommandLineCall, 'invocation'>): Promise<ExitCode> {
  return (await verify(await resolveVerifyConfig(options), { console: true, invocation: call.invocation })).exitCode;
}

/** A rejection is printed by the caller: it passes the values the caller named secret through the mask. */
async function maskingErrors<T>(options: Pick<VerifyOptions, 'secret' | 'showSecrets'>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const mask = options.showSecrets === true ? SecretMask.none() : new SecretMask();
    for (const secret of options.showSecrets === true ? [] : (options.secret ?? [])) mask.add(secret);
    throw maskedError(error, mask);
  }
}
