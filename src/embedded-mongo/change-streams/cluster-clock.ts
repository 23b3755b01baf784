import { Timestamp } from 'bson';

/**
 * The replica set's logical clock: every committed change gets a Timestamp (seconds, increment)
 * greater than all earlier ones, as oplog entries do. It follows the wall clock but never goes
 * back, also across a restart that reloads later times than the wall clock shows.
 */
export class ClusterClock {
  private seconds = 0;
  private increment = 0;
  /** The latest time as one shared, immutable Timestamp: every reply carries it, most between two ticks. */
  private latest = new Timestamp({ t: 0, i: 0 });

  constructor() {
    this.tick(); // like the no-op mongod writes when a set starts: there is a "now" before any write
  }

  /** The time of the latest change (a reply's `operationTime` and `$clusterTime`). */
  current(): Timestamp {
    return this.latest;
  }

  /** A new time, after every earlier one. */
  tick(): Timestamp {
    const now = Math.floor(Date.now() / 1000);
    if (now > this.seconds) {
      this.seconds = now;
      this.increment = 1;
    } else {
      this.increment++;
    }
    this.latest = new Timestamp({ t: this.seconds, i: this.increment });
    return this.latest;
  }

  /** Never hands out a time at or before `time` again (times reloaded from disk). */
  advancePast(time: Timestamp): void {
    if (time.t > this.seconds || (time.t === this.seconds && time.i >= this.increment)) {
      this.seconds = time.t;
      this.increment = time.i;
      this.latest = new Timestamp({ t: this.seconds, i: this.increment });
    }
  }
}
