import { ECHO_LENGTH, echo, echoValue } from '../../../src/domain/echo';

describe('echo: what an error repeats of a client value', () => {
  it('keeps short text whole and cuts long text to ECHO_LENGTH characters, noting the full length', () => {
    expect(echo('abc')).toBe('abc');
    expect(echo('x'.repeat(ECHO_LENGTH))).toBe('x'.repeat(ECHO_LENGTH));
    const cut = echo('y'.repeat(100_000));
    expect(cut).toBe(`${'y'.repeat(ECHO_LENGTH)}... (100000 characters)`);
  });

  it('renders non-strings as text first', () => {
    expect(echo(42)).toBe('42');
    expect(echo({ a: 1 })).toBe('{"a":1}');
    expect(echo(Array.from({ length: 10_000 }, () => 1)).length).toBeLessThan(ECHO_LENGTH + 40);
    expect(echo(10n)).toBe('10');
  });

  it('keeps small values as they are in error data and cuts large ones to text', () => {
    expect(echoValue(1)).toBe(1);
    expect(echoValue(null)).toBeNull();
    expect(echoValue('short')).toBe('short');
    expect(echoValue({ $gt: 1 })).toEqual({ $gt: 1 });
    expect(echoValue('z'.repeat(5000))).toBe(`${'z'.repeat(ECHO_LENGTH)}... (5000 characters)`);
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, index]));
    expect(typeof echoValue(wide)).toBe('string');
    expect((echoValue(wide) as string).length).toBeLessThan(ECHO_LENGTH + 40);
  });
});
