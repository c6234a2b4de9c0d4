import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../shared/jobs';
import { PrivacyDeskError } from '../../shared/errors';
import { createFakeBridge } from '../test/fake-bridge';
import { followJob } from './jobs';

const progress = (jobId: string, page: number): JobProgress => ({ jobId, kind: 'users.walk', page, totalPages: 2, collected: page * 10 });

describe('followJob (start a job and follow its events)', () => {
  it('reports only this job’s progress, resolves with its finished event, then stops listening', async () => {
    const fake = createFakeBridge();
    const seen: JobProgress[] = [];
    const job = await followJob(fake.bridge, fake.events, () => fake.bridge['users.walk']({ profileId: 'sandbox' }), { onProgress: (p) => seen.push(p) });

    fake.emitEvent('job.progress', progress(job.jobId, 1));
    fake.emitEvent('job.progress', progress('someone-else', 1));
    fake.emitEvent('job.progress', progress(job.jobId, 2));
    fake.emitEvent('job.finished', { jobId: job.jobId, kind: 'users.walk', status: 'completed', result: { users: 20, pages: 2, firstUids: [] } });

    expect(seen).toEqual([progress(job.jobId, 1), progress(job.jobId, 2)]);
    expect(await job.finished).toMatchObject({ status: 'completed', result: { users: 20 } });
    expect(fake.listenerCount('job.progress') + fake.listenerCount('job.finished')).toBe(0);
  });

  it('keeps events that overtake the start answer (a fast failure), so none is missed', async () => {
    const fake = createFakeBridge();
    const job = await followJob(fake.bridge, fake.events, async () => {
      // Main emitted before the renderer learnt the job id.
      fake.emitEvent('job.progress', progress('job-early', 1));
      fake.emitEvent('job.finished', { jobId: 'job-early', kind: 'users.walk', status: 'failed', error: { code: 'PROFILE_NOT_FOUND', outcome: 'not-sent', message: 'No such profile.' } });
      return { jobId: 'job-early' };
    });
    expect(await job.finished).toMatchObject({ status: 'failed', error: { code: 'PROFILE_NOT_FOUND' } });
  });

  it('cancel asks main to stop this job; finished then says it was cancelled', async () => {
    const fake = createFakeBridge();
    const job = await followJob(fake.bridge, fake.events, () => fake.bridge['users.walk']({ profileId: 'sandbox' }));
    expect(await job.cancel()).toBe(true);
    expect(fake.callsOf('jobs.cancel')).toEqual([{ jobId: job.jobId }]);
    expect(await job.finished).toEqual({ jobId: job.jobId, kind: 'users.walk', status: 'cancelled' });
    expect(await job.cancel()).toBe(false);
  });

  it('a refused start stops listening and throws the bridge error', async () => {
    const fake = createFakeBridge();
    fake.failNext('users.walk', { code: 'INVALID_INPUT', message: 'Users per page must be from 1 to 100.' });
    const thrown = await followJob(fake.bridge, fake.events, () => fake.bridge['users.walk']({ profileId: 'sandbox', perPage: 500 })).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PrivacyDeskError);
    expect(fake.listenerCount('job.progress') + fake.listenerCount('job.finished')).toBe(0);
  });

  it('detach stops following while the job runs on', async () => {
    const fake = createFakeBridge();
    const seen: JobProgress[] = [];
    const job = await followJob(fake.bridge, fake.events, () => fake.bridge['users.walk']({ profileId: 'sandbox' }), { onProgress: (p) => seen.push(p) });
    job.detach();
    fake.emitEvent('job.progress', progress(job.jobId, 1));
    expect(seen).toEqual([]);
    expect(fake.listenerCount('job.progress')).toBe(0);
  });

  it('a read followed when the host stops being heard ends here as failed, saying since when and what to do; its late events change nothing', async () => {
    const fake = createFakeBridge();
    const job = await followJob(fake.bridge, fake.events, () => fake.bridge['users.index']({ profileId: 'sandbox' }), { endWhenContactLost: 'users.index' });
    fake.loseContact(new Date(2026, 10, 24, 14, 32));
    const finished = await job.finished;
    expect(finished).toMatchObject({ jobId: job.jobId, kind: 'users.index', status: 'failed', error: { code: 'NETWORK', text: { id: 'bridge.hostContactLost' } } });
    expect(finished.status === 'failed' && finished.error.message).toMatch(/^Lost contact with Privacy Desk’s host at \d{1,2}:32/);
    expect(fake.listenerCount('job.progress') + fake.listenerCount('job.finished')).toBe(0);
  });

  it('a batch run is not ended by a loss of contact: it may still be running, and its screen says so', async () => {
    const fake = createFakeBridge();
    const job = await followJob(fake.bridge, fake.events, async () => ({ jobId: 'job-run' }));
    fake.loseContact(new Date());
    fake.regainContact();
    fake.emitEvent('job.finished', { jobId: 'job-run', kind: 'batch.run', status: 'cancelled' });
    expect(await job.finished).toMatchObject({ status: 'cancelled' });
  });
});

