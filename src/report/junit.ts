import { hostname } from 'node:os';
import { RULES } from '../rules/index.js';
import type { RuleResult, RuleSection } from '../rules/types.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { PropertyResult } from '../core/property-result.js';
import { ruleDetailText } from './console.js';
import { xmlText } from './xml-text.js';

export { xmlText };

/**
 * The run as JUnit XML (the Apache Ant schema CI servers read, `schemas/junit.xsd`): one test suite per
 * section of the catalog and one for the properties, one test case per rule or property. A failed rule is a
 * failure; with `--strict` so is a warning. Warnings and advice that do not fail the run are listed in
 * the suite's output; rules that were not applicable, not exercised or deselected are skipped, never passed.
 */
export function renderJunit(outcome: RunOutcome): string {
  const timestamp = new Date(outcome.startedAt).toISOString().slice(0, 19);
  const seconds = ((outcome.finishedAt - outcome.startedAt) / 1000).toFixed(3);
  const host = hostname() || 'localhost';
  const suites: string[] = [];
  const properties = runProperties(outcome);
  let id = 0;
  for (const section of sections()) {
    const rules = outcome.rules.filter((rule) => sectionOf(rule.id) === section);
    if (rules.length === 0) continue;
    const cases = rules.map((rule) => ruleCase(rule, outcome));
    const notes = rules.filter((rule) => rule.status === 'warn' || rule.status === 'advice').map((rule) => `${rule.status}: ${rule.id}: ${rule.message}\n\n${ruleDetailText(rule, outcome)}`);
    suites.push(
      suite(
        { properties, id: id++, name: `rules.${section}`, timestamp, host, seconds, cases, systemOut: notes.join('\n\n') },
        rules.filter((r) => r.status === 'fail').length,
        rules.filter((r) => r.status === 'error').length,
        rules.filter(isSkipped).length,
      ),
    );
  }
  if (outcome.properties.length > 0) {
    const cases = outcome.properties.map(propertyCase);
    const failures = outcome.properties.filter((p) => p.status === 'failed').length;
    const errors = outcome.properties.filter((p) => p.status === 'flaky').length;
    suites.push(suite({ properties, id: id++, name: 'properties', timestamp, host, seconds, cases, systemOut: '' }, failures, errors, 0));
  }
  if (outcome.verdict === 'incomplete') {
    const missing = outcome.rules.filter((rule) => rule.status === 'not-exercised').map((rule) => rule.id);
    const message = `${outcome.budget?.exhausted ? 'run incomplete: time limit spent' : 'certification incomplete'}: not exercised: ${missing.join(', ') || 'none'}`;
    const cases = [`    <testcase name="certification" classname="provisioner-conformance.run" time="${seconds}">\n      <failure type="incomplete" message="${xmlText(message)}">${xmlText(outcome.conclusions.join('\n'))}</failure>\n    </testcase>`];
    suites.push(suite({ properties, id: id++, name: 'run', timestamp, host, seconds, cases, systemOut: '' }, 1, 0, 0));
  }
  if (outcome.verdict === 'unreachable' || outcome.verdict === 'error') {
    const message = outcome.conclusions.join('; ') || outcome.verdict;
    const cases = [`    <testcase name="run" classname="provisioner-conformance.run" time="${seconds}">\n      <error type="${outcome.verdict}" message="${xmlText(message)}">${xmlText(message)}</error>\n    </testcase>`];
    suites.push(suite({ properties, id: id++, name: 'run', timestamp, host, seconds, cases, systemOut: '' }, 0, 1, 0));
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

/**
 * What a CI server shows next to the results: the kit and its version, the profile, and each property's seed.
 * Test names stay the rule ids and property names, so they are the same from one run to the next.
 */
function runProperties(outcome: RunOutcome): string {
  const pairs: Array<[string, string]> = [
    ['kit', outcome.kit.name],
    ['kit.version', outcome.kit.version],
    ['target', outcome.target.url],
    ['profile', outcome.settings.profile ?? 'none'],
    ['verdict', outcome.verdict],
    ...outcome.properties.map((property): [string, string] => [`seed.${property.name}`, String(property.seed)]),
  ];
  const lines = pairs.map(([name, value]) => `      <property name="${xmlText(name)}" value="${xmlText(value)}"/>`);
  return ['    <properties>', ...lines, '    </properties>'].join('\n');
}

function sections(): RuleSection[] {
  return [...new Set(RULES.map((rule) => rule.section))];
}

function sectionOf(id: string): RuleSection | undefined {
  return RULES.find((rule) => rule.id === id)?.section;
}

function isSkipped(rule: RuleResult): boolean {
  return rule.status === 'not-applicable' || rule.status === 'not-exercised' || rule.status === 'skip' || rule.status === 'waived';
}

interface SuiteParts {
  properties: string;
  id: number;
  name: string;
  timestamp: string;
  host: string;
  seconds: string;
  cases: string[];
  systemOut: string;
}

function suite(parts: SuiteParts, failures: number, errors: number, skipped: number): string {
  const attributes = [
    `package="provisioner-conformance"`,
    `id="${parts.id}"`,
    `name="${xmlText(parts.name)}"`,
    `timestamp="${parts.timestamp}"`,
    `hostname="${xmlText(parts.host)}"`,
    `tests="${parts.cases.length}"`,
    `failures="${failures}"`,
    `errors="${errors}"`,
    `skipped="${skipped}"`,
    `time="${parts.seconds}"`,
  ].join(' ');
  return [
    `  <testsuite ${attributes}>`,
    parts.properties,
    ...parts.cases,
    `    <system-out>${xmlText(parts.systemOut)}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
  ].join('\n');
}

function ruleCase(rule: RuleResult, outcome: RunOutcome): string {
  const open = `    <testcase name="${xmlText(rule.id)}" classname="provisioner-conformance.${sectionOf(rule.id) ?? 'rules'}" time="0">`;
  if (rule.status === 'fail') {
    return `${open}\n      <failure type="${rule.level}" message="${xmlText(rule.message)}">${xmlText(ruleDetailText(rule, outcome))}</failure>\n    </testcase>`;
  }
  if (rule.status === 'error') {
    // The kit failed while judging it: an error of the test, not a failure of the provisioner.
    return `${open}\n      <error type="KIT_INTERNAL" message="${xmlText(rule.message)}">${xmlText(rule.message)}</error>\n    </testcase>`;
  }
  if (rule.waiver) {
    // Never a pass: skipped, with the baseline's reason where a CI server shows it.
    const message = `waived ${rule.waiver.status} until ${rule.waiver.expires}: ${rule.waiver.reason}; ${rule.message}`;
    return `${open}\n      <skipped message="${xmlText(message)}"/>\n    </testcase>`;
  }
  // Not applicable is no gap: the reason says which way of answering the provisioner never chose.
  if (rule.status === 'not-applicable') return `${open}\n      <skipped message="${xmlText(`not applicable: ${rule.message}`)}"/>\n    </testcase>`;
  if (isSkipped(rule)) return `${open}\n      <skipped/>\n    </testcase>`;
  return `${open}</testcase>`;
}

function propertyCase(property: PropertyResult): string {
  const open = `    <testcase name="${xmlText(property.name)}" classname="provisioner-conformance.properties" time="0">`;
  if (property.status === 'passed') return `${open}</testcase>`;
  const element = property.status === 'failed' ? 'failure' : 'error';
  const body = [property.message, '', 'counterexample:', property.counterexample ?? '', '', ...property.notes].join('\n');
  return `${open}\n      <${element} type="${property.status}" message="${xmlText(property.message)}">${xmlText(body)}</${element}>\n    </testcase>`;
}
