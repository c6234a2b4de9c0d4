import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { BridgeProvider } from '../../bridge/bridge-context';
import { createFakeBridge } from '../../test/fake-bridge';
import { useBatchPreview, type PreviewRequest } from './use-batch-preview';

describe('useBatchPreview: a preview no longer shown leaves no draft behind', () => {
  it('discards the draft of a preview replaced by a newer one, of a cleared list, and of the one shown when the screen is left', async () => {
    const fake = createFakeBridge();
    const wrapper = ({ children }: { children: ReactNode }) => <BridgeProvider client={fake.bridge}>{children}</BridgeProvider>;
    // Each change previews at once (as a paste does), so the test waits on answers, not on the typing pause.
    const request = (text: string): PreviewRequest => ({ text, sourceName: 'pasted list', uidColumn: '', referenceColumn: '', hasHeader: false, immediate: { current: true } });
    const { result, rerender, unmount } = renderHook((props: PreviewRequest) => useBatchPreview(props), { initialProps: request('alice'), wrapper });
    await waitFor(() => expect(result.current.preview?.items).toBe(1));
    const first = result.current.preview!.draftId;
    expect(fake.callsOf('batch.discard')).toEqual([]);

    rerender(request('alice\nbob'));
    await waitFor(() => expect(result.current.preview?.items).toBe(2));
    const second = result.current.preview!.draftId;
    expect(fake.callsOf('batch.discard')).toEqual([{ draftId: first }]);

    rerender(request(''));
    await waitFor(() => expect(fake.callsOf('batch.discard')).toEqual([{ draftId: first }, { draftId: second }]));

    rerender(request('carol'));
    await waitFor(() => expect(result.current.preview?.items).toBe(1));
    const third = result.current.preview!.draftId;
    unmount();
    await waitFor(() => expect(fake.callsOf('batch.discard')).toEqual([{ draftId: first }, { draftId: second }, { draftId: third }]));
  });
});
