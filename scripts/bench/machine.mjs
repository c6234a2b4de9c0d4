// What the figures were measured on: they mean little without the machine and how busy it was.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release } from 'node:os';
import { root } from './paths.mjs';

export function describeMachine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
    cores: cpu.length,
    node: process.version,
    os: `${platform()} ${release()}`,
    commit: gitCommit(),
  };
}

export const loadAverage = () => loadavg()[0];

function gitCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return changed ? `${head} with uncommitted changes` : head;
  } catch {
    return 'unknown commit';
  }
}
