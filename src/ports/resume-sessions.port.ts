/**
 * Where a dropped real-time connection's state waits for its client to come back, to whichever
 * instance: shared by the instances, kept for the resume window, taken once.
 */
export interface ResumeSessionsPort {
  /** Keeps `state` for `ttlMs`; never stored in clear where other software can read it. */
  keep(sessionId: string, state: Record<string, unknown>, ttlMs: number): Promise<void>;
  /** The state kept for `sessionId`, removed as it is taken (a session resumes once); undefined when none. */
  take(sessionId: string): Promise<Record<string, unknown> | undefined>;
}
