import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { toast, useToaster, type Toast } from 'react-hot-toast';
import { notify, TOAST_POSITIONS } from '../../src/views/ui/toast';
import { TOAST_DURATION_MS } from '../../src/views/ui/Toasts';

// The toast settings of spec section 9 as the app's host sees them: read through the same
// useToaster hook the host uses (rendered on the server, no DOM needed).

function current(): Toast[] {
  let seen: Toast[] = [];
  function Probe() {
    seen = useToaster({ duration: TOAST_DURATION_MS }).toasts;
    return null;
  }
  renderToStaticMarkup(<Probe />);
  return seen;
}

afterEach(() => toast.remove());

describe('toasts', () => {
  it('keeps at most 20, dropping the oldest, newest first', () => {
    for (let i = 1; i <= 25; i++) notify.show(`message ${i}`);
    const toasts = current();
    expect(toasts).toHaveLength(20);
    expect(toasts[0].message).toBe('message 25');
    expect(toasts[19].message).toBe('message 6');
  });

  it('closes every kind after 5000 ms', () => {
    notify.success('s');
    notify.error('e');
    notify.warning('w');
    notify.info('i');
    notify.show('d');
    expect(current().map((t) => t.duration)).toEqual([5000, 5000, 5000, 5000, 5000]);
  });

  it('marks the five kinds, and lets errors interrupt while others wait politely', () => {
    notify.success('s');
    notify.error('e');
    notify.warning('w');
    notify.info('i');
    notify.show('d');
    const byMessage: Record<string, Toast> = Object.fromEntries(current().map((t) => [String(t.message), t]));
    expect(Object.fromEntries(Object.entries(byMessage).map(([m, t]) => [m, t.className]))).toEqual({
      s: 'toast-success',
      e: 'toast-error',
      w: 'toast-warning',
      i: 'toast-info',
      d: 'toast-default',
    });
    expect(byMessage.e.ariaProps).toEqual({ role: 'alert', 'aria-live': 'assertive' });
    expect(byMessage.w.ariaProps).toEqual({ role: 'status', 'aria-live': 'polite' });
  });

  it('offers the six positions, top-right unless asked', () => {
    expect(TOAST_POSITIONS).toEqual([
      'top-left',
      'top-center',
      'top-right',
      'bottom-left',
      'bottom-center',
      'bottom-right',
    ]);
    notify.info('here', { position: 'bottom-left' });
    notify.info('default');
    const [def, here] = current();
    expect(here.position).toBe('bottom-left');
    expect(def.position).toBeUndefined(); // the host places these top-right
  });

  it('replaces a toast that reuses an id instead of stacking a copy', () => {
    notify.warning('first', { id: 'same' });
    notify.warning('second', { id: 'same' });
    expect(current().map((t) => t.message)).toEqual(['second']);
  });
});
