import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { CopyUidButton } from './copy-button';
import { VisibleUid } from './visible-uid';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const show = (node: React.ReactNode, language: 'en' | 'fr' = 'en') => render(<I18nextProvider i18n={createI18n(language)}>{node}</I18nextProvider>);

/** Selects the whole of a node's contents, as a drag or a triple click would. */
function select(node: Node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = document.getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
}

function copy(target: Element): { text: string | undefined; prevented: boolean } {
  let text: string | undefined;
  const clipboardData = { setData: (_type: string, value: string) => void (text = value) };
  const prevented = !fireEvent.copy(target, { clipboardData });
  return { text, prevented };
}

describe('a uid drawn visibly', () => {
  it('draws every invisible character as its own mark, with a name a screen reader says', () => {
    const uid = ' a\u00a0b\u200bc\u202ed\te\u2003f\u200eg\ufeffh ';
    const { container } = show(<VisibleUid uid={uid} />);
    const marks = screen.getAllByRole('img');
    expect(marks.map((mark) => mark.textContent)).toEqual(['␣', 'NBSP', 'ZWSP', 'RLO', 'TAB', 'U+2003', 'LRM', 'BOM', '␣']);
    expect(marks.map((mark) => mark.getAttribute('aria-label'))).toEqual([
      'space (U+0020)',
      'no-break space (U+00A0)',
      'zero-width space (U+200B)',
      'text direction control (U+202E)',
      'tab (U+0009)',
      'invisible character U+2003',
      'left-to-right mark (U+200E)',
      'byte order mark (zero-width no-break space) (U+FEFF)',
      'space (U+0020)',
    ]);
    // Nothing invisible is left in what is drawn: every character the reader cannot see has its mark.
    expect(container.textContent).toBe('␣aNBSPbZWSPcRLOdTABeU+2003fLRMgBOMh␣');
  });

  it('leaves ordinary text and emoji alone (a joiner inside an emoji is part of it)', () => {
    const { container } = show(<VisibleUid uid="zoë-👩‍💻-王" inline />);
    expect(screen.queryAllByRole('img')).toHaveLength(0);
    expect(container.textContent).toBe('zoë-👩‍💻-王');
  });

  it('names the marks in French too', () => {
    show(<VisibleUid uid={'x\u00a0'} />, 'fr');
    expect(screen.getByRole('img', { name: 'espace insécable (U+00A0)' })).toBeTruthy();
  });

  it('copying from the box gives the real uid, not the marks', () => {
    const uid = ' user-000490\u00a0';
    const { container } = show(<VisibleUid uid={uid} />);
    const box = container.querySelector('[data-uid-box]')!;
    select(box);
    expect(copy(box)).toEqual({ text: uid, prevented: true });
    // Part of it: the selected characters only, a mark giving its own character.
    const range = document.createRange();
    range.setStart(box.childNodes[1]!.firstChild!, 5);
    range.setEnd(box.childNodes[2]!.firstChild!, 4);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
    expect(copy(box).text).toBe('000490\u00a0');
  });

  it('leaves a copy outside any uid to the browser', () => {
    const { container } = show(
      <p>
        plain text <VisibleUid uid=" x" inline />
      </p>,
    );
    select(container.querySelector('p')!.firstChild!);
    expect(copy(container.querySelector('p')!)).toEqual({ text: undefined, prevented: false });
  });

  it('the copy button copies the real uid', async () => {
    const writeText = vi.fn(async (text: string) => void text);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    show(<CopyUidButton uid={' user-000490 '} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy uid' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(' user-000490 '));
    expect(await screen.findByText('✓ Copied')).toBeTruthy();
  });
});
