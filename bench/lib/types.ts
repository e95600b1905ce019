/** The shape of bench/results/*.json. */
import type { LoadKind } from '../load';
import type { Summary } from './stats';

export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  postgres: string;
  redis: string;
  commit: string;
  uncommittedChanges: boolean;
  date: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

export interface Settings {
  quick: boolean;
  scenario: string | null;
  /** --profile: where product processes write their CPU profiles (null: no profiling). */
  profileDir: string | null;
  connections: number;
  durationS: number;
  warmupS: number;
  dbPoolMax: number;
  lifecycleN: number;
  lifecycleTimeoutS: number;
  lifecycleSettleMs: number;
  initOnlySettleMs: number;
  subsMerchants: number;
  subsPerMerchant: number;
  subsChangesPerMerchant: number;
  subsRatePerS: number;
  subsGraceS: number;
}

export interface HttpScenario {
  id: string;
  label: string;
  server: 'product' | 'baseline' | 'floor';
  kind: LoadKind;
  requests: number;
  durationS: number;
  rps: number;
  latency: Summary;
  errors: number;
  non2xx: number;
  connectionErrors: number;
  graphqlErrors: number;
  statusCodes: Record<string, number>;
  /** Peak VmRSS of the server under test (MB). */
  rssPeakMb: number | null;
  /** Peak VmRSS of the product process during this run, whichever server was under test. */
  productRssPeakMb: number | null;
  /** CPU (utime + stime) of the server under test per response, ms. */
  cpuMsPerRequest: number | null;
  /** CPU of the server under test as a share of one core, %. */
  serverCpuPct: number | null;
  postgresCpuMsPerRequest: number | null;
  loadgenCpuPct: number | null;
  sampleErrorBody?: string;
}

export interface Comparison {
  scenario: string;
  label: string;
  baselineRuns: string[];
  baselineRps: number | null;
  ratio: number | null;
  cpuRatio: number | null;
  /** PostgreSQL CPU per request, product ÷ the bracketing baseline runs'. */
  postgresCpuRatio?: number | null;
  /** Collection initiation: the engine-floor runs bracketing it, their mean rate, and the product's ratio to it. */
  floorRuns?: string[];
  floorRps?: number | null;
  floorRatio?: number | null;
}

export interface LifecycleResult {
  n: number;
  initiated: number;
  initiationErrors: number;
  initiationRps: number;
  initiationLatency: Summary;
  finished: boolean;
  timeoutS: number;
  webhooksReceived: number;
  duplicates: number;
  failedCollections: number;
  /** ms from the first initiation to the last webhook (or to the timeout). */
  elapsedMs: number;
  endToEndRps: number | null;
  settleMs: Summary;
  webhookLatencyMs: Summary;
  productRssPeakMb: number | null;
  cpuMsPerCollection: number | null;
  postgresCpuMsPerCollection: number | null;
  note: string;
  sampleErrorBody?: string;
}

export interface SubscriptionsResult {
  subscribers: number;
  merchants: number;
  connected: number;
  failedToConnect: number;
  closedEarly: number;
  probeReceivedBy: number;
  changes: number;
  driveRatePerS: number;
  simulateErrors: number;
  expectedDeliveries: number;
  received: number;
  missed: number;
  duplicates: number;
  otherEvents: number;
  graphqlErrors: number;
  firstError?: string;
  latencyMs: Summary;
  productRssPeakMb: number | null;
  cpuMsPerChange: number | null;
  postgresCpuMsPerChange: number | null;
  /** CPU of the subscribers' own process over the window, % of one core (is the client keeping up?). */
  subscribersProcessCpuPct: number | null;
  /** Length of the measured window (connect → result), s. */
  windowS: number | null;
  note: string;
}

export interface Target {
  name: string;
  goal: string;
  value: string;
  met: boolean | null;
}

export interface BenchResults {
  version: 1;
  runId: string;
  startedAt: string;
  finishedAt: string;
  totalS: number;
  machine: MachineFacts;
  settings: Settings;
  scenarios: HttpScenario[];
  comparisons: Comparison[];
  lifecycle: LifecycleResult | null;
  subscriptions: SubscriptionsResult | null;
  targets: Target[];
  problems: string[];
}
