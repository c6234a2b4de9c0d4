import { describe, expect, it } from 'vitest';
import { isTrustedRecipient, isTrustedSender } from './sender-guard';

const trusted = new Set([7]);
const good = { webContentsId: 7, isMainFrame: true, frameUrl: 'app://privacy-desk/index.html' };

describe('isTrustedSender (who may call the bridge over IPC)', () => {
  it('accepts the main frame of our window on our page', () => {
    expect(isTrustedSender(good, trusted)).toBe(true);
  });
  it('refuses a webContents we did not create', () => {
    expect(isTrustedSender({ ...good, webContentsId: 8 }, trusted)).toBe(false);
  });
  it('refuses an iframe inside our window', () => {
    expect(isTrustedSender({ ...good, isMainFrame: false }, trusted)).toBe(false);
  });
  it('refuses our window once it shows another origin', () => {
    expect(isTrustedSender({ ...good, frameUrl: 'https://evil.example/' }, trusted)).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: 'file:///tmp/x.html' }, trusted)).toBe(false);
  });
  it('refuses a sender whose frame is gone', () => {
    expect(isTrustedSender({ ...good, frameUrl: undefined }, trusted)).toBe(false);
  });
});

describe('isTrustedRecipient (which windows get bridge events)', () => {
  const ours = { webContentsId: 7, mainFrameUrl: 'app://privacy-desk/index.html' };
  it('sends to our window while it shows our page', () => {
    expect(isTrustedRecipient(ours, trusted)).toBe(true);
  });
  it('sends nothing to a window we did not create', () => {
    expect(isTrustedRecipient({ ...ours, webContentsId: 8 }, trusted)).toBe(false);
  });
  it('sends nothing to our window once it shows another origin, or no page', () => {
    expect(isTrustedRecipient({ ...ours, mainFrameUrl: 'https://evil.example/' }, trusted)).toBe(false);
    expect(isTrustedRecipient({ ...ours, mainFrameUrl: undefined }, trusted)).toBe(false);
  });
});
