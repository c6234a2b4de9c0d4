// Runs the parts interleaved: every part once as a warm-up (not counted), then round after round of every part,
// so whatever else the machine does meanwhile falls on all of them alike rather than on whichever ran then.
// A part marked `once` (the 100,000-uid batch: minutes long, and measuring memory, which the machine's load moves
// far less than times) runs once, after the rounds.
//
// A part is { name, once?, setup(ctx) → state, measure(state) → { key: number }, warmUp?(state), teardown?(state) }.
// Each figure is the median of its rounds (or what its definition in figures.mjs says).
import { FIGURES } from './figures.mjs';
import { median } from './median.mjs';

export async function runParts(parts, context) {
  const { options, log } = context;
  const states = new Map();
  const samples = {};
  const record = (part, values) => {
    for (const [key, value] of Object.entries(values)) (samples[key] ??= []).push(value);
    log(`  ${part.name}: ${Object.entries(values).map(([key, value]) => `${key} ${round(value)}`).join(', ')}`);
  };
  try {
    for (const part of parts) {
      log(`setting up ${part.name}…`);
      states.set(part, await part.setup(context));
    }
    const repeated = parts.filter((part) => !part.once);
    if (options.warmUp) {
      for (const part of repeated) {
        log(`warm-up: ${part.name}`);
        await (part.warmUp ?? part.measure)(states.get(part));
      }
    }
    for (let round = 1; round <= options.reps; round += 1) {
      for (const part of repeated) {
        log(`round ${round} of ${options.reps}: ${part.name}`);
        record(part, await part.measure(states.get(part)));
      }
    }
    for (const part of parts.filter((candidate) => candidate.once)) {
      log(`once: ${part.name}`);
      record(part, await part.measure(states.get(part)));
    }
  } finally {
    for (const part of parts) if (states.has(part)) await part.teardown?.(states.get(part));
  }
  return summarise(samples);
}

/** Each figure's value (median of its rounds unless its definition says otherwise) and its rounds' range. */
function summarise(samples) {
  const figures = {};
  const ranges = {};
  for (const [key, values] of Object.entries(samples)) {
    const aggregate = FIGURES[key]?.aggregate === 'max' ? Math.max(...values) : median(values);
    figures[key] = aggregate;
    ranges[key] = { min: Math.min(...values), max: Math.max(...values), count: values.length };
  }
  return { figures, ranges };
}

function round(value) {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3));
}
