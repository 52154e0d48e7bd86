/**
 * `import { scan } from "domain-audit"`: the package's public surface (docs/library.md). Everything
 * exported here is stable under semver; the modules it re-exports from are internal. Nothing in
 * the project imports this module: the server, the batch and the command line run the same engine
 * (`scan/Scanner.ts`, `score/Score.ts`) directly.
 */
import type { Registry } from "../checks/index.ts"
import { registry as registered } from "../checks/index.ts"
import type { Entry, Spec } from "../kernel/Declaration.ts"
import { catalogue as entries, type IssueId } from "../score/Catalogue.ts"
import { specsOf } from "../score/Rules.ts"

// The door for any caller: Promises and an async iterable.
export {
  DomainAuditError,
  type Domains,
  preview,
  type PreviewOptions,
  type PreviewRecord,
  scan,
  type ScanEntry,
  scanMany,
  type ScanManyOptions,
  type ScanOptions
} from "./ScanPromises.ts"
export { type LibraryOptions, settingsLayer } from "./LibraryOptions.ts"

// The door for Effect programs: the Scanner service, its layers and the net services it runs over.
export {
  type GradedPreview,
  type GradedScan,
  InvalidDomain,
  NetLive,
  netLayer,
  Scanner,
  type ScanSettings
} from "./ScannerService.ts"
export { AppConfig, type Settings, type Upstream } from "../Config.ts"
export { Resolver } from "../net/Resolver.ts"
export { type Ask, type Query, type QueryOptions, resolverOver } from "../net/ResolverShape.ts"
export { type DnsAnswer, DnsError, type DnsRecord, type RecordType, RecordTypes } from "../net/DnsTypes.ts"
export { Smtp } from "../net/Smtp.ts"
export { Web } from "../net/Web.ts"

// The results' Schemas: a scan, a check's outcome, the score and its parts.
export { CheckOutcome, ScanResult } from "../scan/ScanResult.ts"
export { Categories, type Category } from "../kernel/Check.ts"
export { ScanDepth, ScanDepths } from "../kernel/Depth.ts"
export { DepthNote } from "../score/DepthNote.ts"
export { CategoryScore, Recommendation, ScanScore, score } from "../score/Score.ts"
export { scoreRecords } from "./LibraryScore.ts"
export { type Domain, DomainFromString } from "../records/DomainName.ts"
export { Compared, PreviewRefused, PreviewScore } from "../composite/Preview.ts"
export { Issue, type IssueId } from "../score/Catalogue.ts"
export {
  bandOf,
  CheckRecord,
  Grade,
  GradeInfo,
  gradeRank,
  gradeScale,
  Level,
  percentOf,
  RecordStatus,
  scoringVersion
} from "../score/Model.ts"
export type { Scored } from "../score/Rules.ts"
export type { Entry, Spec } from "../kernel/Declaration.ts"
export { Nis2Scorecard, nis2Scorecard } from "../score/Nis2.ts"

// Evidence checked offline: a snapshot's content hash and signature, a history export's hash chain.
export { type SnapshotVerdict, type VerifyOptions, verifySnapshot } from "../report/VerifySnapshot.ts"
export { type SignatureVerdict, type VerificationKey } from "../report/VerifySignature.ts"
export { JwkSet, PublicJwk } from "../report/Jws.ts"
export { type HistoryVerdict, verifyHistory } from "../monitor/VerifyHistory.ts"

/** Every check a full scan runs, in report order: id, title, category, result Schema, rules, issues. */
export const registry: Registry = registered

/** The result Schema of each check of the registry, by check id. */
export const checkResults = Object.fromEntries(registered.map((check) => [check.id, check.result])) as {
  readonly [C in Registry[number] as C["id"]]: C["result"]
}

/** Every scoring rule (id, category, points, level, critical, the rule in words): a frozen copy. */
export const rules: ReadonlyArray<Spec> = Object.freeze(
  specsOf(registered).map((spec) => Object.freeze({ ...spec }))
)

/** The issue catalogue, by issue id (severity, title, description, fixable): a frozen copy. */
export const catalogue: Readonly<Record<IssueId, Entry>> = Object.freeze(
  Object.fromEntries(Object.entries(entries).map(([id, entry]) => [id, Object.freeze({ ...entry })]))
)
