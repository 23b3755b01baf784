import { ResumeWindow, type EventPacket } from '../../../../src/adapters/socketio/resume-window';

/** What a connection resumes with: each missed event's text; undefined when it cannot resume. */
function texts(packets: EventPacket[] | undefined): string[] | undefined {
  return packets?.map(([, data]) => (data as { text: string }).text);
}

describe('ResumeWindow', () => {
  let now = 0;
  const window = (options: Partial<ConstructorParameters<typeof ResumeWindow>[0]> = {}) =>
    new ResumeWindow({ windowMs: 1_000, maxEventsPerConnection: 100, maxBytes: 1_000_000, ...options }, () => now);
  const send = (resume: ResumeWindow, text: string, pids: string[]) => {
    const offset = resume.nextOffset();
    resume.record(['messages created', { text }, offset], pids, text.length);
    return offset;
  };

  beforeEach(() => (now = 0));

  it('gives a connection what it was sent after the offset it names, in order, and only its own', () => {
    const resume = window();
    const start = resume.currentOffset();
    const first = send(resume, 'a', ['x', 'y']);
    send(resume, 'b', ['y']);
    send(resume, 'c', ['x']);
    expect(texts(resume.missedSince('x', start))).toEqual(['a', 'c']);
    expect(texts(resume.missedSince('x', first))).toEqual(['c']);
    expect(texts(resume.missedSince('y', first))).toEqual(['b']);
    expect(resume.missedSince('z', start)).toBeUndefined();
  });

  it('refuses a resume that would skip events no longer kept: too many, too old, too many bytes', () => {
    const byCount = window({ maxEventsPerConnection: 2 });
    const start = byCount.currentOffset();
    const offsets = ['a', 'b', 'c'].map((text) => send(byCount, text, ['x']));
    expect(byCount.missedSince('x', start)).toBeUndefined();
    expect(texts(byCount.missedSince('x', offsets[0]))).toEqual(['b', 'c']);

    const byAge = window();
    const early = byAge.currentOffset();
    send(byAge, 'old', ['x']);
    now = 1_500;
    const later = send(byAge, 'new', ['x']);
    expect(byAge.missedSince('x', early)).toBeUndefined();
    expect(texts(byAge.missedSince('x', later))).toEqual([]);

    const byBytes = window({ maxBytes: 10 });
    const before = byBytes.currentOffset();
    send(byBytes, 'xxxxxxxx', ['x']);
    send(byBytes, 'yyyyyyyy', ['x']);
    expect(byBytes.size().bytes).toBeLessThanOrEqual(10);
    expect(byBytes.missedSince('x', before)).toBeUndefined();
  });

  it(
    'knows which connections were sent something: one that was sent nothing ' +
      'has no history to resume from, and missed nothing',
    () => {
      const resume = window();
      expect(resume.hasHistory('x')).toBe(false);
      resume.record(['messages created', { text: 'one' }, resume.nextOffset()], ['x'], 10);
      expect(resume.hasHistory('x')).toBe(true);
      expect(resume.hasHistory('y')).toBe(false);
      resume.forget('x');
      expect(resume.hasHistory('x')).toBe(false);
    },
  );

  it('lets go of a connection it forgets, and of events nobody holds', () => {
    const resume = window();
    const start = resume.currentOffset();
    send(resume, 'a', ['x']);
    expect(resume.size()).toEqual({ events: 1, bytes: 1, connections: 1 });
    resume.forget('x');
    expect(resume.missedSince('x', start)).toBeUndefined();
    expect(resume.size().bytes).toBe(0);
  });
});
