/**
 * Mrkdwn a person reads is cut to Slack's limits by `cutMrkdwn` alone, which never splits an entity
 * or a token (`&amp;`, `<@U…>`, `<!date…>`, `<#C…>`, a link). This scan finds the other way to go
 * wrong in the views: a raw cut of a section's text (`.slice(0, 3000)`) or the plain-text `truncate`
 * put on mrkdwn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './support/source-files.js';

const RAW_CUTS = [/\.slice\(0, (?:3000|2000|SECTION_MAX|TEXT_MAX)\)/, /\btruncate\(lines\.join/, /\.substring\(0,/];

function offences(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => RAW_CUTS.some((pattern) => pattern.test(line)))
    .map((line) => line.trim());
}

describe('one mrkdwn cutter', () => {
  it('finds no raw cut of mrkdwn in the Slack views', () => {
    const files = sourceFiles().filter((file) => file.startsWith('slack/'));
    expect(files.length).toBeGreaterThan(50);
    // The scan sees a raw cut where one is written.
    expect(offences("text: lines.join('\\n').slice(0, 3000) }")).toHaveLength(1);
    const found = files.flatMap((file) => offences(readFileSync(join(SRC, file), 'utf8')).map((line) => `${file}: ${line}`));
    expect(found).toEqual([]);
  });
});
