export const SUITE_NAMES = ['http', 'store', 'rest', 'database', 'scale', 'memory', 'embedded', 'large', 'realtime'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

export interface CliOptions {
  suites: SuiteName[];
  quick: boolean;
  rounds: number;
  duration: number;
  connections: number;
  profile: boolean;
  only?: string;
}

export const USAGE = `usage: npm run bench -- [${SUITE_NAMES.join('|')} ...] [--quick] [--rounds N] [--duration SECONDS] [--connections N] [--profile] [--only TEXT]
  no suite names: run them all
  --quick        3 rounds of 2 s (default: 5 rounds of 5 s)
  --only TEXT    run only the comparisons whose id contains TEXT (e.g. --only get+auth)
  --profile      write CPU profiles of the framework server children to bench/results/profiles and summarize them`;

export function parseCliOptions(argv: string[]): CliOptions {
  const suites: SuiteName[] = [];
  let quick = false;
  let profile = false;
  let rounds: number | undefined;
  let duration: number | undefined;
  let connections = 20;
  let only: string | undefined;
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
    } else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else if ((SUITE_NAMES as readonly string[]).includes(arg)) suites.push(arg as SuiteName);
    else throw new Error(`unknown argument '${arg}'\n${USAGE}`);
  }
  return {
    suites: suites.length > 0 ? suites : [...SUITE_NAMES],
    quick,
    rounds: rounds ?? (quick ? 3 : 5),
    duration: duration ?? (quick ? 2 : 5),
    connections,
    profile,
    only,
  };
}
