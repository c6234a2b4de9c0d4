import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app';
import { useUiStore } from '../../state/ui-store';
import { useBatchDraft } from './batch-draft-store';
import { resetBatchRun } from './batch-run-store';

beforeEach(() => {
  resetBatchRun();
  useBatchDraft.getState().clear();
});

/** The check's lookalikes: said with the uid on the service, in the window's language, with nothing to click that would send another uid. */
describe('the Batch screen’s lookalike uids', () => {
  for (const language of ['en', 'fr'] as const) {
    it(`calls a uid with other capitals or an invisible character inside a likely mistake, naming the uid on the service (${language})`, async () => {
      const { fake } = renderApp();
      await screen.findByRole('tablist');
      if (language === 'fr') fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'fr' } });
      act(() => useUiStore.getState().setView('batch'));
      const box = await screen.findByLabelText(language === 'fr' ? 'uid à effacer' : 'uids to erase');
      fireEvent.paste(box);
      fireEvent.change(box, { target: { value: 'support-1\nMarie.Curie@example.org\njean\u00a0dupont' } });
      await waitFor(() => expect(fake.callsOf('batch.preview')).toHaveLength(1));
      fireEvent.click(await screen.findByRole('button', { name: language === 'fr' ? 'Vérifier auprès du service' : 'Check against the service' }));
      await waitFor(() => expect(fake.callsOf('batch.check')).toHaveLength(1));
      const checkJob = `job-${fake.calls.findIndex((call) => call.method === 'batch.check') + 1}`;
      const lookalikes = {
        count: 2,
        sample: [
          { line: 2, uid: 'Marie.Curie@example.org', why: 'case' as const, onService: ['marie.curie@example.org'] },
          { line: 3, uid: 'jean\u00a0dupont', why: 'invisible' as const, onService: ['jean dupont'] },
        ],
      };
      const result = { users: 600, existing: 1, missing: 2, missingSample: ['Marie.Curie@example.org', 'jean\u00a0dupont'], trimmable: { count: 0, sample: [] }, lookalikes };
      act(() => fake.emitEvent('job.finished', { jobId: checkJob, kind: 'batch.check', status: 'completed', result }));
      const heading = language === 'fr' ? 'Erreur probable\u00a0: un uid du service lui ressemble' : 'Likely mistake: a uid on the service looks the same';
      const callout = await screen.findByRole('region', { name: heading });
      const items = within(callout).getAllByRole('listitem').map((item) => item.textContent);
      expect(items).toEqual(
        language === 'fr'
          ? ['ligne 2 Marie.Curie@example.org — sur le service\u00a0: marie.curie@example.org (majuscules ou accents différents)', 'ligne 3 jeanNBSPdupont — sur le service\u00a0: jean␣dupont (caractères invisibles différents)']
          : ['line 2 Marie.Curie@example.org — on the service: marie.curie@example.org (capitals or accents differ)', 'line 3 jeanNBSPdupont — on the service: jean␣dupont (invisible characters differ)'],
      );
      expect(within(callout).getByText(language === 'fr' ? /^2 uid ne sont pas sur le service/ : /^2 uids are not on the service/)).toBeTruthy();
      expect(within(callout).queryByRole('button')).toBeNull();
    });
  }
});
