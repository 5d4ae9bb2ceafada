import { describe, expect, it } from 'vitest';
import { displayProblem } from './display.js';

describe('whether a tray icon can be shown', () => {
  it('needs DISPLAY or WAYLAND_DISPLAY on Linux, and says what to run instead', () => {
    expect(displayProblem({ DISPLAY: ':0' }, 'linux')).toBeUndefined();
    expect(displayProblem({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeUndefined();
    const problem = displayProblem({ DISPLAY: '' }, 'linux');
    expect(problem).toContain('neither DISPLAY nor WAYLAND_DISPLAY is set');
    expect(problem).toContain('blitz daemon start');
    expect(problem).toContain('blitz autostart enable --daemon-only');
  });

  it('macOS and Windows always have a desktop; other systems have no helper', () => {
    expect(displayProblem({}, 'darwin')).toBeUndefined();
    expect(displayProblem({}, 'win32')).toBeUndefined();
    expect(displayProblem({ DISPLAY: ':0' }, 'freebsd')).toContain('not supported on freebsd');
  });
});
