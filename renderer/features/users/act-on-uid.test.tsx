import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MAX_UID_LENGTH } from '../../../shared/uid';
import { renderApp } from '../../test/render-app';

async function actOnUidBox() {
  renderApp();
  await screen.findByRole('table', { name: 'Users on page 1' });
  const box = screen.getByRole('region', { name: 'Act on a uid' });
  const type = (uid: string) => fireEvent.change(within(box).getByLabelText('uid'), { target: { value: uid } });
  const anonymize = within(box).getByRole('button', { name: 'Anonymise' });
  return { box, type, anonymize };
}

describe('act on a uid', () => {
  it('says nothing for an empty field, but keeps the actions off', async () => {
    const { box, anonymize } = await actOnUidBox();
    expect(anonymize.hasAttribute('disabled')).toBe(true);
    expect(within(box).queryByText(/✗/)).toBeNull();
  });

  it.each([
    ['x'.repeat(MAX_UID_LENGTH + 1), `This is longer than any uid (at most ${MAX_UID_LENGTH} characters).`],
    // A text field strips line breaks itself; a tab stays.
    ['alice\t', 'The uid contains a control character'],
    ['alice\ud83d', 'The uid contains a broken character'],
    ['..', 'A uid of "." or ".." cannot be sent in a request path.'],
  ])('refuses %j in words and keeps the actions off', async (uid, words) => {
    const { box, type, anonymize } = await actOnUidBox();
    type(uid);
    expect(within(box).getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    expect(box.textContent).toContain(words);
    expect(anonymize.hasAttribute('disabled')).toBe(true);
  });
});
