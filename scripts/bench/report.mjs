// The figures as bench/results.json (flat: one number per key) and as the table in docs/BENCHMARKS.md, between
// markers so that the hand-written text around it stays as it is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FIGURES, formatValue, goalText, verdict } from './figures.mjs';
import { root } from './paths.mjs';

export const DOCS_FILE = join(root, 'docs', 'BENCHMARKS.md');
const START = '<!-- bench:start — written by `npm run bench`; edits between these markers are overwritten -->';
const END = '<!-- bench:end -->';

/** Figures in the order of figures.mjs, each a finite number rounded to what the measurement can tell. */
export function resultsJson(figures) {
  const ordered = {};
  for (const key of [...Object.keys(FIGURES), ...Object.keys(figures)]) {
    if (key in figures && !(key in ordered)) ordered[key] = Number(figures[key].toPrecision(4));
  }
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function writeResults(file, figures) {
  const path = resolve(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, resultsJson(figures));
  return path;
}

/** The markdown table of a run, with the machine it ran on and how. */
export function resultsTable({ figures, ranges }, run) {
  const { machine } = run;
  const lines = [
    `Run of ${run.date}: ${run.minutes.toFixed(1)} minutes, ${run.reps} round${run.reps === 1 ? '' : 's'}${run.warmUp ? ' after a warm-up' : ''}${run.notes.length ? `; ${run.notes.join('; ')}` : ''}.`,
    `Machine: ${machine.cores} × ${machine.cpu}, Node ${machine.node}, ${machine.os}; load average ${run.loadStart.toFixed(2)} at the start, ${run.loadEnd.toFixed(2)} at the end; commit ${machine.commit}.`,
    '',
    '| part | figure | key | value | goal | verdict | rounds: min – max |',
    '| --- | --- | --- | ---: | ---: | --- | ---: |',
  ];
  for (const [key, definition] of Object.entries(FIGURES)) {
    if (!(key in figures)) continue;
    const value = figures[key];
    const range = ranges[key];
    const spread = range.count > 1 ? `${formatValue(key, range.min)} – ${formatValue(key, range.max)} (${range.count})` : 'once';
    const judged = verdict(key, value);
    lines.push(`| ${definition.part} | ${definition.label} | \`${key}\` | ${formatValue(key, value)} | ${goalText(key)} | ${judged === 'missed' ? '**missed**' : judged ?? '—'} | ${spread} |`);
  }
  const judged = Object.keys(figures).map((key) => verdict(key, figures[key])).filter(Boolean);
  lines.push('', `Goals met: ${judged.filter((v) => v === 'met').length} of ${judged.length}.`);
  return lines.join('\n');
}

/** Replaces the generated section of docs/BENCHMARKS.md (or adds it at the end when its markers are missing). */
export function writeDocs(table) {
  const text = readFileSync(DOCS_FILE, 'utf8');
  const section = `${START}\n${table}\n${END}`;
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  const next = from >= 0 && to > from ? `${text.slice(0, from)}${section}${text.slice(to + END.length)}` : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOCS_FILE, next);
}
