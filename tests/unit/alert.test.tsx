// @vitest-environment jsdom
// The alert holds focus while open: the rest of the page is inert, Tab stays inside, Escape is
// OK and focus goes back to where it was.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AlertProvider, useAlert } from '../../src/app/alert';

afterEach(cleanup);

function Page({ onClosed }: { onClosed: () => void }) {
  const alert = useAlert();
  return (
    <main>
      <input aria-label="field" />
      <button type="button" onClick={() => void alert('Saved.').then(onClosed)}>
        send
      </button>
    </main>
  );
}

describe('alert', () => {
  it('makes the page inert, keeps Tab inside, closes on Escape and gives focus back', async () => {
    let closed = 0;
    render(
      <AlertProvider>
        <Page onClosed={() => closed++} />
      </AlertProvider>,
    );
    const send = screen.getByRole('button', { name: 'send' });
    send.focus();
    act(() => send.click());
    const dialog = screen.getByRole('alertdialog');
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(document.activeElement).toBe(ok);
    expect(send.closest('[inert]')).not.toBeNull();
    expect(dialog.closest('[inert]')).toBeNull();

    for (const shiftKey of [false, true]) {
      const tab = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true });
      ok.dispatchEvent(tab);
      expect(tab.defaultPrevented).toBe(true);
      expect(document.activeElement).toBe(ok);
    }

    fireEvent.keyDown(ok, { key: 'Escape' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(closed).toBe(1);
    expect(send.closest('[inert]')).toBeNull();
    expect(document.activeElement).toBe(send);
  });
});
