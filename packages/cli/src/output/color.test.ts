import { describe, expect, it } from 'vitest';
import { useColor } from './color.js';

describe('when to colour', () => {
  it.each([
    { tty: true, env: {}, flag: true, color: true },
    { tty: false, env: {}, flag: true, color: false },
    { tty: true, env: {}, flag: false, color: false },
    { tty: true, env: { NO_COLOR: '1' }, flag: true, color: false },
    { tty: true, env: { NO_COLOR: '' }, flag: true, color: true },
    { tty: true, env: { TERM: 'dumb' }, flag: true, color: false },
    { tty: false, env: { FORCE_COLOR: '1' }, flag: true, color: true },
    { tty: true, env: { FORCE_COLOR: '0' }, flag: true, color: false },
    { tty: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' }, flag: true, color: false },
    { tty: false, env: { FORCE_COLOR: '1' }, flag: false, color: false },
  ])('terminal $tty, $env, colour allowed by the flags $flag → $color', ({ tty, env, flag, color }) => {
    expect(useColor({ isTTY: tty }, env, flag)).toBe(color);
  });
});
