import { describe, expect, it } from 'vitest';
import { renderSummary, summaryLine } from '../../src/report/console.js';
import { sampleOutcome, sampleOutcomeWithNotApplicable } from './outcome-fixture.js';

const ANSI = /\u001b\[/;

describe('renderSummary', () => {
  it('ends with the rules that did not hold, the counts and the verdict', () => {
    const lines = renderSummary(sampleOutcome(), { color: false }).trimEnd().split('\n');
    // After pages of evidence, the last lines name what to look up; advice is no rule that did not hold.
    expect(lines.at(-3)).toBe('did not hold: operation.no-in-progress-after-final (fail), operation.transient-errors (warn, 2 times)');
    expect(lines.at(-2)).toBe('1 passed, 1 failed, 1 warned, 1 not exercised, 1 advice, 1 skipped');
    expect(lines.at(-1)).toBe('verdict: fail (exit 1)');
  });

  it('names no rule above the counts when every rule held', () => {
    const outcome = sampleOutcome();
    const held = { ...outcome, verdict: 'pass' as const, exitCode: 0 as const, rules: outcome.rules.filter((rule) => !['fail', 'warn'].includes(rule.status)) };
    const lines = renderSummary(held, { color: false }).trimEnd().split('\n');
    expect(lines.join('\n')).not.toContain('did not hold:');
    expect(lines.at(-3)).toBe('');
  });

  it('adds advice and skipped only when there are any, after the others', () => {
    const base = { passed: 20, failed: 1, warned: 2, advice: 0, skipped: 0, notExercised: 4 };
    expect(summaryLine(base)).toBe('20 passed, 1 failed, 2 warned, 4 not exercised');
    expect(summaryLine({ ...base, advice: 1 })).toBe('20 passed, 1 failed, 2 warned, 4 not exercised, 1 advice');
    expect(summaryLine({ ...base, skipped: 3 })).toBe('20 passed, 1 failed, 2 warned, 4 not exercised, 3 skipped');
  });

  it('prints one aligned line per rule, with the not-exercised reason below', () => {
    const text = renderSummary(sampleOutcome(), { color: false });
    expect(text).toContain('✓ pass           answer.status                         Plan and apply answer 200 or 202');
    expect(text).toMatch(/^✗ fail {11}operation\.no-in-progress-after-final {2}No in_progress after a final answer$/m);
    expect(text).toMatch(/^! warn {11}operation\.transient-errors +Reads answer without transient errors$/m);
    expect(text).toMatch(/^~ advice {9}operation\.404-identifiable +404 answers are recognisable$/m);
    expect(text).toMatch(/^– not-exercised {2}durability\.survives-restart +Operations survive a restart\n {17}no --restart-command was given$/m);
    expect(text).toMatch(/^– skip {11}plan\.repeatable/m);
  });

  it('shows a rule that is not applicable with its reason below, and counts it', () => {
    const text = renderSummary(sampleOutcomeWithNotApplicable(), { color: false });
    expect(text).toMatch(/^○ not-applicable {2}final\.body +A 200 answer is a final answer\n {18}all 183 plan and apply calls were answered 202: no 200 answer to judge$/m);
    expect(text).toMatch(/^– not-exercised {3}durability\.survives-restart/m);
    expect(summaryLine({ passed: 20, failed: 0, warned: 0, advice: 0, skipped: 0, notExercised: 0, notApplicable: 16 })).toBe(
      '20 passed, 0 failed, 0 warned, 0 not exercised, 16 not applicable',
    );
  });

  it('starts with the conclusions and what the control plane would conclude', () => {
    const text = renderSummary(sampleOutcome(), { color: false });
    expect(text.startsWith('Conclusions\n  • The provisioner answered 202: the async rules were exercised.\n')).toBe(true);
    expect(text).toContain('  apply shop-db  6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b  the control plane would record succeeded');
  });

  it('fits every line to a terminal it is given the width of, the conclusion below its operation, a command left whole', () => {
    const text = renderSummary(sampleOutcome(), { color: true, columns: 60 });
    const rows = text.trimEnd().split('\n');
    const wide = rows.filter((row) => row.replace(/\u001b\[\d*m/g, '').length > 59 && !/^ *repeat: /.test(row));
    expect(wide).toEqual([]);
    const at = rows.findIndex((row) => row.includes('6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b'));
    expect(rows[at]!.replace(/\u001b\[\d*m/g, '')).toBe('  apply shop-db  6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b');
    expect(rows[at + 1]).toBe('      the control plane would record succeeded');
    expect(rows.some((row) => row.startsWith("  repeat: curl -sS -i 'http://127.0.0.1:8080/operations/6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b'"))).toBe(true);
    // Without a width, as in a file or a pipe, a line stays whole however long.
    expect(renderSummary(sampleOutcome(), { color: false })).toContain('  apply shop-db  6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b  the control plane would record succeeded\n');
  });

  it('shows each broken rule with its sentence, message, evidence and a curl to repeat it', () => {
    const text = renderSummary(sampleOutcome(), { color: false });
    const block = text.slice(text.indexOf('✗ operation.no-in-progress-after-final (MUST, fail)'));
    expect(block).toContain('  Once a read of an operation has been answered with a final outcome');
    expect(block).toContain('  1 read sent after a final answer said in_progress');
    expect(block).toContain('  • final answer received, then in_progress');
    expect(block).toMatch(/ {6}#5 {2}\+2\.200s {2}GET http:\/\/127\.0\.0\.1:8080\/operations\/\S+ {2}→ 200 \(5ms\) {2}probe: read after final/);
    expect(block).toContain(`  repeat: curl -sS -i 'http://127.0.0.1:8080/operations/6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b'`);
    expect(text).toContain('! operation.transient-errors (SHOULD, warn, 2 times)');
    expect(text).toContain('~ operation.404-identifiable (ADVICE, advice)');
  });

  it('shows an HTML page from a proxy as text and redacts secrets', () => {
    const text = renderSummary(sampleOutcome(), { color: false });
    expect(text).toContain('        Service Unavailable');
    expect(text).toContain('        The gateway could not reach the provisioner in time.');
    expect(text).toContain('retry-after: 5');
    expect(text).not.toMatch(/<\/?[a-z]|font-family|secretScriptMarker/);
    expect(text).not.toContain('abc123');
    expect(text).toContain('"token": "[redacted]"');
  });

  it('has no ANSI escapes without colour, and colours with it', () => {
    expect(renderSummary(sampleOutcome(), { color: false })).not.toMatch(ANSI);
    const coloured = renderSummary(sampleOutcome(), { color: true });
    expect(coloured).toContain('\u001b[31m✗ fail');
    expect(coloured).toContain('\u001b[33m! warn');
    expect(coloured).toContain('\u001b[36m~ advice');
  });

  it('never lets upstream escapes through, even with colour', () => {
    const outcome = sampleOutcome();
    outcome.rules[1]!.message = 'evil \u001b]0;title\u0007\u001b[2Jmessage';
    const text = renderSummary(outcome, { color: false });
    expect(text).toContain('evil message');
    expect(text).not.toMatch(/\u001b/);
  });

  it('says how many exchanges and pieces of evidence were left out', () => {
    const outcome = sampleOutcome();
    outcome.rules[1]!.evidence = Array.from({ length: 7 }, (_, i) => ({ note: `evidence ${i}`, exchanges: [1, 2, 3, 4, 5, 6] }));
    const text = renderSummary(outcome, { color: false });
    expect(text).toContain('      … 3 more exchanges left out (#4, #5, #6)');
    expect(text).toContain('  … 2 more pieces of evidence left out');
    expect(text).not.toContain('evidence 5');
  });

  it("shows a piece of evidence's first exchanges in the order they were sent, whatever the rule's order", () => {
    const outcome = sampleOutcome();
    // The rule names the read after the final answer first; the 404 probe, sent after it, is beyond the first three.
    outcome.rules[1]!.evidence = [{ note: 'newest first', exchanges: [5, 4, 2, 6] }];
    const text = renderSummary(outcome, { color: false });
    const block = text.slice(text.indexOf('  • newest first'), text.indexOf('  repeat:'));
    const shown = [...block.matchAll(/^ {6}#(\d+) /gm)].map((match) => Number(match[1]));
    expect(shown).toEqual([2, 4, 5]);
    expect(block).toContain('      … 1 more exchange left out (#6)');
    // The curl to repeat it is still the rule's first exchange.
    expect(text).toContain(`  repeat: curl -sS -i 'http://127.0.0.1:8080/operations/6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b'`);
  });

  it('shows the verdict of an unreachable target', () => {
    const text = renderSummary(sampleOutcome({ verdict: 'unreachable', exitCode: 3 }), { color: false });
    expect(text.trimEnd().split('\n').at(-1)).toBe('verdict: unreachable (exit 3)');
  });
});
