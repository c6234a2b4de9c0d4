import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CONFORMANCE_CASE_IDS } from '../../../shared/logout-conformance';
import { LIVE_PROFILE, LOCAL_PROFILE } from '../../test/fake-bridge';
import { renderApp } from '../../test/render-app';
import * as saving from '../../components/save-file';

async function openConformance(options: Parameters<typeof renderApp>[0]) {
  const user = userEvent.setup();
  const rendered = renderApp(options);
  await user.click(await screen.findByRole('tab', { name: 'Logout tester' }));
  await user.type(screen.getByLabelText('User uid'), 'carol');
  const section = screen.getByRole('region', { name: 'Conformance run' });
  return { ...rendered, user, section };
}

describe('the logout tester’s conformance run', () => {
  it('on the sandbox runs at once and shows every case with its verdict, filterable by verdict and source', async () => {
    const { user, fake, section } = await openConformance({ profiles: [LOCAL_PROFILE] });
    await user.click(within(section).getByRole('button', { name: 'Run the conformance checks' }));
    await waitFor(() => expect(within(section).getAllByTestId('conformance-row')).toHaveLength(CONFORMANCE_CASE_IDS.length));
    expect(fake.callsOf('logout.conformance')).toEqual([{ profileId: LOCAL_PROFILE.id, uid: 'carol' }]);
    expect(within(section).getByRole('status').textContent).toContain('Every rule of the service’s docs is met.');
    const row = within(section).getAllByTestId('conformance-row').find((one) => one.dataset.case === 'wrong-secret')!;
    expect(row.textContent).toContain('A token signed with another secret is refused.');
    expect(row.textContent).toContain('refused (400); the sessions stayed open');
    expect(row.textContent).toContain('The service said: “The logout token is not valid.”');

    await user.selectOptions(within(section).getByRole('combobox', { name: 'Verdict' }), 'not-conformant');
    expect(within(section).getAllByTestId('conformance-row').map((one) => one.dataset.case)).toEqual(['no-events', 'events-without-member']);
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Source' }), 'service-docs');
    expect(within(section).queryAllByTestId('conformance-row')).toEqual([]);
    expect(within(section).getByText('No case matches these filters.')).toBeTruthy();
  });

  it('names the uid and service its results are for, and says so when the uid above has changed since', async () => {
    const { user, section } = await openConformance({ profiles: [LOCAL_PROFILE] });
    await user.click(within(section).getByRole('button', { name: 'Run the conformance checks' }));
    await within(section).findAllByTestId('conformance-row');
    expect(within(section).getByTestId('conformance-ran-for').textContent).toMatch(/^These results are for carol on /);
    expect(within(section).queryByTestId('conformance-other-uid')).toBeNull();
    await user.type(screen.getByLabelText('User uid'), 'ine');
    expect(within(section).getByTestId('conformance-other-uid').textContent).toBe('The uid above has changed since: these results are for carol. Run the checks again for the uid above.');
    expect(within(section).getAllByTestId('conformance-row')).toHaveLength(CONFORMANCE_CASE_IDS.length);
  });

  it('exports the run as JUnit XML, CSV and JSON in the window’s words', async () => {
    const save = vi.spyOn(saving, 'saveFile').mockImplementation(() => undefined);
    const { user, section } = await openConformance({ profiles: [LOCAL_PROFILE] });
    await user.click(within(section).getByRole('button', { name: 'Run the conformance checks' }));
    await within(section).findAllByTestId('conformance-row');
    const exports = within(section).getByRole('group', { name: 'Export' });
    await user.click(within(exports).getByRole('button', { name: 'JUnit XML' }));
    await user.click(within(exports).getByRole('button', { name: 'CSV' }));
    await user.click(within(exports).getByRole('button', { name: 'JSON' }));
    const [junit, csv, json] = save.mock.calls.map(([file]) => file);
    expect(junit).toMatchObject({ mimeType: 'application/xml', fileName: expect.stringMatching(/\.xml$/) });
    expect(String(junit?.content)).toContain('<failure type="oidc-spec"');
    expect(String(csv?.content).split('\r\n')[0]).toBe('"id","source","reference","rule","expected","actual","verdict","uid","service","started_at"');
    const parsed = JSON.parse(String(json?.content)) as { cases: Array<{ id: string; rule: string; verdict: string }> };
    expect(parsed.cases.find((one) => one.id === 'nonce')).toMatchObject({ rule: 'A token carrying a nonce is refused.', verdict: 'conformant' });
  });

  it('on live data asks for the uid typed again; Cancel sends nothing; a wrong uid cannot confirm', async () => {
    const { user, fake, section } = await openConformance({ profiles: [LIVE_PROFILE] });
    expect(section.textContent).toContain('Valid tokens end the real sessions of this uid.');
    await user.click(within(section).getByRole('button', { name: 'Run the conformance checks' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run the conformance checks on live data?' });
    expect(dialog.textContent).toContain('The valid ones end the real sessions of carol');
    // The other-sub case's token is valid too: on live data it would end the sessions of a user named CAROL.
    expect(dialog.textContent).toContain('One token names CAROL (the same uid in other letter case');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    const go = within(dialog).getByRole('button', { name: 'Run on live data' });
    await user.type(within(dialog).getByLabelText('Type the uid to confirm'), 'caro');
    expect(go).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsOf('logout.conformance')).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Run the conformance checks' }));
    const again = await screen.findByRole('dialog', { name: 'Run the conformance checks on live data?' });
    await user.type(within(again).getByLabelText('Type the uid to confirm'), 'carol');
    await user.click(within(again).getByRole('button', { name: 'Run on live data' }));
    await waitFor(() => expect(fake.callsOf('logout.conformance')).toEqual([{ profileId: LIVE_PROFILE.id, uid: 'carol', confirmUid: 'carol' }]));
    expect((await within(section).findByRole('status')).textContent).toContain('Sessions were not checked on this service.');
  });

  it('in French, the table and its verdicts are worded in French', async () => {
    const { user, section } = await openConformance({ profiles: [LOCAL_PROFILE] });
    await user.click(within(section).getByRole('button', { name: 'Run the conformance checks' }));
    await within(section).findAllByTestId('conformance-row');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    const french = await screen.findByRole('region', { name: 'Série de conformité' });
    const row = within(french).getAllByTestId('conformance-row').find((one) => one.dataset.case === 'nonce')!;
    expect(row.textContent).toContain('Un jeton portant un nonce est refusé.');
    expect(row.textContent).toContain('refusé (400)\u00a0; les sessions sont restées ouvertes');
    expect(row.textContent).toContain('Conforme');
  });
});
