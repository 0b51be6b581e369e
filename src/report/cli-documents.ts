// The documents the command line prints with `--json`, one type each: the CLI builds them against these types, and
// schemas/cli/<command>.schema.json says the same for a reader in another language (test/cli/json-documents.test.ts
// validates real output against both). They live here, below the CLI, so the package root can export them.
import type { Issue, IssueLike } from '../errors/types.js'
import type { FixItem } from '../fix/types.js'
import type { ImprovementHint } from '../areas/output.js'
import type { CostEstimate } from '../grade/estimate.js'
import type { EmittedPrompt, GradeBasis, JudgeCallCount, SchemaGrading, UnitResult } from '../grade/types.js'
import type { ExportResult } from '../island/export.js'
import type { GradeReportV1, ReportTraceStep } from '../protocol/scoring-protocol.js'
import type { RollupIndex } from '../rollup/types.js'
import type { VersionInfo } from '../version.js'

/** A unit as `grade --json` shows it: its grade, whether it was kept, and the judge's hints. */
export interface GradeJsonUnit {
    readonly unit: string
    readonly area: UnitResult['area']
    readonly status: UnitResult['status']
    readonly grade: UnitResult['aggregateGrade']
    readonly kept: boolean
    /** A single-test unit whose tool's tests ran through the FlowMCP runtime (`--runtime`). */
    readonly via?: 'runtime'
    readonly reason: string | null
    readonly improvementHints: readonly ImprovementHint[]
}

/** A namespace of `grade --json`: its headline grade, its own units, its `index.json`. */
export interface GradeJsonNamespace {
    readonly namespace: string | null
    readonly grade: string | null
    readonly provisionalGrade: string | null
    readonly mode: 'full' | 'provisional' | 'none'
    readonly units: readonly GradeJsonUnit[]
    readonly rollupStatus: string | null
    readonly rollupGrade: string | null
    readonly judgeCalls: JudgeCallCount | null
    readonly indexPath: string | null
    /** What to fix at the namespace level (its description, its About), most costly first (`FixList.buildNamespace`). */
    readonly fixList: readonly FixItem[]
    readonly errors: readonly Issue[]
}

/** A schema of `grade --json`: its grading (units as {@link GradeJsonUnit}), open prompts, fix list and errors. */
export interface GradeJsonSchema {
    readonly resumed: boolean
    readonly file: string
    readonly grading: (Omit<SchemaGrading, 'units'> & { readonly units: readonly GradeJsonUnit[] }) | null
    /** Per tool, the tests the FlowMCP runtime ran and how many succeeded; absent when it ran none. */
    readonly runtime?: {
        readonly version: string | null
        readonly tools: Readonly<Record<string, { readonly tests: number; readonly ok: number }>>
    }
    /** The open units, ready to be answered (as `emit-prompts --areas` writes them). */
    readonly prompts: ReadonlyArray<Pick<EmittedPrompt, 'unit' | 'area' | 'questions'>>
    /** What to fix, most costly first. */
    readonly fixList: readonly FixItem[]
    readonly errors: readonly Issue[]
}

/** `grade --json` (schemas/cli/grade.schema.json). */
export interface GradeJson {
    readonly now: string
    /** The FlowMCP runtime that ran the handler tools' tests (`--runtime`), or null. */
    readonly runtime: { readonly version: string | null } | null
    /** Every judge call of the run. */
    readonly judgeCalls: JudgeCallCount
    readonly namespaces: readonly GradeJsonNamespace[]
    readonly schemas: readonly GradeJsonSchema[]
}

/** `grade --estimate --json` (schemas/cli/grade-estimate.schema.json). */
export interface GradeEstimateJson {
    readonly now: string
    readonly estimate: Pick<
        CostEstimate,
        | 'calls'
        | 'inputTokens'
        | 'cachedTokens'
        | 'uncachedTokens'
        | 'outputTokens'
        | 'charsPerToken'
        | 'cost'
        | 'byKey'
    >
}

/** A schema's row of `check --json`. */
export interface CheckJsonSchema {
    readonly schemaId: string
    readonly file: string | null
    readonly grade: string | null
    /** The score the grade comes from and the raw grade before the tier's trim (`SchemaStanding.basis`). */
    readonly basis: GradeBasis | null
    readonly schemaGrade: string | null
    /** The standing's status, or `unreadable` / `removed`. */
    readonly status: string
    readonly reason: string | null
    readonly note: string | null
    readonly verdict: 'ok' | 'fails' | 'unverified' | 'removed'
    /** Why the run could not establish its standing, null when it could. */
    readonly unverified: string | null
    /** What the baseline said of it: its grade, its status, or `-`. */
    readonly baseline: string
    /** Why it fails the check, in words; empty when it passes. */
    readonly failures: readonly string[]
    /** The tools not tested here, each with why. */
    readonly untested: readonly string[]
    /** The warnings of its fix list the baseline did not have. */
    readonly newWarnings: readonly FixItem[]
    readonly fixList: readonly FixItem[]
}

/** `check --json` (schemas/cli/check.schema.json). */
export interface CheckJson {
    readonly passed: boolean
    /** What the run says once: no judge given, no baseline found, a path gone. */
    readonly notices?: readonly string[]
    /** Why the warnings fail the check (`--max-warnings`), when they do. */
    readonly maxWarnings?: string
    /** What an interrupted run skipped. */
    readonly interrupted?: { readonly skipped: readonly string[] }
    readonly schemas: readonly CheckJsonSchema[]
}

/** Why `affected` lists a folder: the changed file and what it is to the folder. */
export interface AffectedJsonReason {
    readonly file: string
    readonly as: 'schema' | 'schema folder' | 'config' | 'recording'
    /** For a recording: the host it answers. */
    readonly host?: string
}

/** `affected --json` (schemas/cli/affected.schema.json). */
export interface AffectedJson {
    readonly folders: ReadonlyArray<{ readonly folder: string; readonly because: readonly AffectedJsonReason[] }>
}

/** `validate --json` (schemas/cli/validate.schema.json): each file's kind and verdict. */
export interface ValidateJson {
    readonly files: ReadonlyArray<{
        readonly file: string
        /** The artefact kind detected (or `--kind`), `unknown`, or `unreadable`. */
        readonly kind: string
        readonly valid: boolean
        /** Codes of the catalogue, and `IO` for a file that could not be read. */
        readonly errors: readonly IssueLike[]
    }>
}

/** An error of `consume-scores --json`: an issue, or a usage or read failure (`CLI-USAGE`, `CLI-IO`). */
export type ConsumeScoresJsonError = IssueLike | { readonly code: 'CLI-USAGE' | 'CLI-IO'; readonly message: string }

/** `consume-scores --json` (schemas/cli/consume-scores.schema.json): the grade report, or why there is none. */
export interface ConsumeScoresJson {
    readonly ok: boolean
    readonly report: GradeReportV1 | null
    /** How the score was reached, step by step; with a report. */
    readonly trace?: readonly ReportTraceStep[]
    /** The island path of the entry written (`--island`), or null; with a report. */
    readonly written?: string | null
    readonly errors: readonly ConsumeScoresJsonError[]
}

/** `rebuild-index --json` (schemas/cli/rebuild-index.schema.json): `ok` says whether the rebuild ran. */
export interface RebuildIndexJson {
    readonly ok: boolean
    readonly indexPath: string | null
    readonly index: RollupIndex | null
    readonly errors: readonly Issue[]
}

/** `export --json` (schemas/cli/export.schema.json): `ok` is `status`. */
export type ExportJson = { readonly ok: boolean } & ExportResult

/** `report --json` (schemas/cli/report.schema.json); `html` only without `--out`. */
export interface ReportJson {
    readonly ok: boolean
    /** The file written (`--out`), or null. */
    readonly out: string | null
    readonly namespaces: number
    readonly selections: number
    readonly errors: readonly Issue[]
    readonly html?: string
}

/** `version --json` (schemas/cli/version.schema.json). */
export type VersionJson = VersionInfo
