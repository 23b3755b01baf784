import type { ServerName } from './bundle-servers';

export const SUITE_NAMES = [
  'http',
  'store',
  'rest',
  'database',
  'scale',
  'memory',
  'embedded',
  'large',
  'realtime',
] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

export interface CliOptions {
  suites: SuiteName[];
  quick: boolean;
  rounds: number;
  duration: number;
  connections: number;
  profile: boolean;
  only?: string;
  /** `--against <git ref>`: the framework at that commit as one more contender (http and realtime suites). */
  against?: string;
}

/** The suites in which `--against` adds the framework at the other commit, and the server of that tree each runs. */
export const AGAINST_SERVER_OF_SUITE = {
  http: 'framework-server',
  realtime: 'realtime-server',
} as const satisfies Partial<Record<SuiteName, ServerName>>;
const AGAINST_SUITES = Object.keys(AGAINST_SERVER_OF_SUITE) as Array<keyof typeof AGAINST_SERVER_OF_SUITE>;

export const USAGE =
  `usage: npm run bench -- [${SUITE_NAMES.join('|')} ...] [--quick] [--rounds N] [--duration ` +
  `SECONDS] [--connections N] [--profile] [--only TEXT] [--against GIT-REF]
  no suite names: run them all (with --against: http and realtime)
  --quick        3 rounds of 2 s (default: 5 rounds of 5 s)
  --only TEXT    run only the comparisons whose id contains TEXT (e.g. --only get+auth)
  --profile      write CPU profiles of the framework server children to bench/results/profiles and summarize them
  --against REF  also run the framework at that commit in the same rounds and report this tree / REF (http, realtime)`;

export function parseCliOptions(argv: string[]): CliOptions {
  const suites: SuiteName[] = [];
  let quick = false;
  let profile = false;
  let rounds: number | undefined;
  let duration: number | undefined;
  let connections = 20;
  let only: string | undefined;
  let against: string | undefined;
  const numberAfter = (index: number, name: string): number => {
    const value = Number(argv[index + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number\n${USAGE}`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--rounds') rounds = Math.max(3, Math.round(numberAfter(i++, arg)));
    else if (arg === '--duration') duration = numberAfter(i++, arg);
    else if (arg === '--connections') connections = Math.round(numberAfter(i++, arg));
    else if (arg === '--only') {
      only = argv[++i];
      if (!only) throw new Error(`--only needs a text\n${USAGE}`);
    } else if (arg === '--against') {
      against = argv[++i];
      if (!against || against.startsWith('-'))
        throw new Error(`--against needs a git ref (a commit, tag or branch, e.g. HEAD~1)\n${USAGE}`);
    } else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else if ((SUITE_NAMES as readonly string[]).includes(arg)) suites.push(arg as SuiteName);
    else throw new Error(`unknown argument '${arg}'\n${USAGE}`);
  }
  const others = suites.filter((name) => !(AGAINST_SUITES as SuiteName[]).includes(name));
  if (against !== undefined && others.length > 0) {
    throw new Error(
      `--against compares the framework in the ${AGAINST_SUITES.join(' and ')} suites only, not ` +
        `in ${others.join(', ')}\n${USAGE}`,
    );
  }
  return {
    suites: suites.length > 0 ? suites : against !== undefined ? [...AGAINST_SUITES] : [...SUITE_NAMES],
    quick,
    rounds: rounds ?? (quick ? 3 : 5),
    duration: duration ?? (quick ? 2 : 5),
    connections,
    profile,
    only,
    against,
  };
}
