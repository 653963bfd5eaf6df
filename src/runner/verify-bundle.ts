import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { judgeRules, ruleIdsJudgedAcrossTraffic } from '../rules/index.js';
import { catalogSha256, MANIFEST_FILE, MANIFEST_FORMAT, sha256, type BundleManifest } from './bundle-manifest.js';
import { parseTranscriptFile } from '../transcript/transcript-file.js';
import { decideVerdict } from './verdict.js';
import { applyBaseline } from './baseline.js';
import type { Waiver } from '../config/baseline.js';
import { jsonSyntaxMessage } from '../core/json.js';
import type { Exchange } from '../transcript/exchange.js';

/** One thing wrong with a bundle, and the file it is about. */
export interface BundleProblem {
  file: string;
  problem: string;
}

export interface BundleCheck {
  /** Files whose hash held. */
  checked: string[];
  problems: BundleProblem[];
  /** The verdict recorded in the bundle, and the one its transcript gives when judged again. */
  recordedVerdict?: string;
  judgedVerdict?: string;
  /** The catalog the bundle was judged by differs from this kit's: a changed verdict may come from that. */
  otherCatalog: boolean;
  /** The exchanges of the bundle's transcript, when it could be read: what masks the check's text. */
  exchanges: readonly Exchange[];
  /**
   * The bundle is of an observation (`observe --bundle`): its transcript keeps only the evidence of what did not
   * hold, so the check is that every rule recorded broken is still broken on it; passes were counted while
   * observing and are not judged again.
   */
  observed: boolean;
  /** Rules recorded broken by an observation that the evidence cannot show alone, left as recorded. */
  notRejudged: string[];
}

interface RecordedReport {
  verdict: string;
  startedAt: string;
  settings: { strict: boolean; profile?: string; baseline?: { waivers: Waiver[] } };
  rules: Array<{ id: string; status: string }>;
  observation?: unknown;
}

/** The statuses of a rule that did not hold. */
const BROKEN = new Set(['fail', 'warn', 'advice']);

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}

function parseJson<T>(content: Buffer, file: string, problems: BundleProblem[]): T | undefined {
  try {
    return JSON.parse(content.toString('utf8')) as T;
  } catch (error) {
    problems.push({ file, problem: `is not JSON: ${jsonSyntaxMessage(error)}` });
    return undefined;
  }
}

/**
 * Checks a bundle written by `run --bundle`: every file's bytes against the manifest, then the transcript
 * judged again offline against the verdict and rule statuses the report records.
 */
export async function verifyBundle(dir: string): Promise<BundleCheck> {
  const problems: BundleProblem[] = [];
  const check: BundleCheck = { checked: [], problems, otherCatalog: false, exchanges: [], observed: false, notRejudged: [] };
  const manifestBytes = await readIfPresent(join(dir, MANIFEST_FILE));
  if (!manifestBytes) return { ...check, problems: [{ file: MANIFEST_FILE, problem: 'is missing: this is not a bundle written by run --bundle or observe --bundle' }] };
  const manifest = parseJson<BundleManifest>(manifestBytes, MANIFEST_FILE, problems);
  if (!manifest) return check;
  if (manifest.format !== MANIFEST_FORMAT || !Array.isArray(manifest.files)) {
    problems.push({ file: MANIFEST_FILE, problem: `is not a manifest of this kit (format ${JSON.stringify(manifest.format)})` });
    return check;
  }
  check.otherCatalog = manifest.catalogSha256 !== catalogSha256();
  const contents = new Map<string, Buffer>();
  for (const entry of manifest.files) {
    // A manifest names files inside its bundle only.
    if (typeof entry.path !== 'string' || entry.path.includes('/') || entry.path.includes('\\') || entry.path.startsWith('.')) {
      problems.push({ file: MANIFEST_FILE, problem: `names a file outside the bundle: ${JSON.stringify(entry.path)}` });
      continue;
    }
    const content = await readIfPresent(join(dir, entry.path));
    if (!content) {
      problems.push({ file: entry.path, problem: 'is listed in the manifest but missing' });
      continue;
    }
    if (content.length !== entry.bytes || sha256(content) !== entry.sha256) {
      problems.push({ file: entry.path, problem: `has changed since the run: ${content.length} bytes with sha256 ${sha256(content).slice(0, 12)}…, the manifest says ${entry.bytes} bytes with ${String(entry.sha256).slice(0, 12)}…` });
      continue;
    }
    check.checked.push(entry.path);
    contents.set(entry.path, content);
  }
  for (const required of ['report.json', 'transcript.json']) {
    if (!manifest.files.some((entry) => entry.path === required)) problems.push({ file: MANIFEST_FILE, problem: `does not list ${required}` });
  }
  const reportBytes = contents.get('report.json');
  const transcriptBytes = contents.get('transcript.json');
  if (problems.length > 0 || !reportBytes || !transcriptBytes) return check;

  const report = parseJson<RecordedReport>(reportBytes, 'report.json', problems);
  if (!report) return check;
  let parsed;
  try {
    parsed = parseTranscriptFile(transcriptBytes.toString('utf8'), 'transcript.json');
  } catch (error) {
    problems.push({ file: 'transcript.json', problem: `cannot be read: ${jsonSyntaxMessage(error)}` });
    return check;
  }
  check.exchanges = parsed.transcript.exchanges;
  if (manifest.verdict !== report.verdict) {
    problems.push({ file: MANIFEST_FILE, problem: `records verdict ${manifest.verdict}, report.json records ${report.verdict}` });
  }
  if (report.observation !== undefined) {
    check.observed = true;
    check.notRejudged = checkObservedEvidence(report, parsed, problems);
    return check;
  }
  const skip = report.rules.filter((rule) => rule.status === 'skip').map((rule) => rule.id);
  // The run's own baseline, as of the day it ran, and its profile: the verdict must follow from the same judgement.
  const { rules } = applyBaseline(
    judgeRules(parsed.transcript, parsed.context, { strict: report.settings.strict, skip }),
    report.settings.baseline?.waivers ?? [],
    Date.parse(report.startedAt),
  );
  const judged = decideVerdict(rules, parsed.transcript, false, report.settings.profile === 'certify');
  check.recordedVerdict = report.verdict;
  check.judgedVerdict = judged;
  // A stopped run is recorded as error: it never claimed the provisioner passed, whatever the exchanges show.
  const verdictFollows = report.verdict === judged || (report.verdict === 'error' && judged !== 'fail');
  if (!verdictFollows) problems.push({ file: 'report.json', problem: `records verdict ${report.verdict}, but its transcript judged again gives ${judged}` });
  const recorded = new Map(report.rules.map((rule) => [rule.id, rule.status]));
  for (const rule of rules) {
    const status = recorded.get(rule.id);
    if (status !== rule.status) {
      problems.push({ file: 'report.json', problem: `records ${rule.id} as ${status ?? 'absent'}, but its transcript judged again gives ${rule.status}` });
    }
  }
  return check;
}

/**
 * An observation's transcript holds the evidence of what did not hold, not the whole traffic: judged again,
 * every rule the report records as fail, warn or advice must still come out broken on it.
 */
function checkObservedEvidence(report: RecordedReport, parsed: ReturnType<typeof parseTranscriptFile>, problems: BundleProblem[]): string[] {
  const broken = report.rules.filter((rule) => BROKEN.has(rule.status));
  // A rule judged across the traffic compared a 202 with every id seen before, which the kept evidence cannot show: left as recorded.
  const acrossTraffic = ruleIdsJudgedAcrossTraffic();
  const notRejudged = broken.filter((rule) => acrossTraffic.includes(rule.id)).map((rule) => rule.id);
  const recordedBroken = broken.filter((rule) => !notRejudged.includes(rule.id));
  if (recordedBroken.length === 0) return notRejudged;
  const judged = new Map(
    judgeRules(parsed.transcript, parsed.context, { strict: report.settings.strict, only: recordedBroken.map((rule) => rule.id) }).map((rule) => [rule.id, rule.status]),
  );
  for (const rule of recordedBroken) {
    const status = judged.get(rule.id);
    if (status === undefined || !BROKEN.has(status)) {
      problems.push({ file: 'report.json', problem: `records ${rule.id} as ${rule.status}, but the evidence its transcript keeps, judged again, gives ${status ?? 'nothing'}` });
    }
  }
  return notRejudged;
}
