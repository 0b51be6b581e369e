// `grade --json`: the document a run prints, per namespace and per schema what the island now says.
import { addJudgeCallCounts, newJudgeTally, judgeCallCountOf } from '../../grade/judge-call.js'
import type { GradeJson, GradeJsonUnit, GradeNamespaceResult, JudgeCallCount, UnitResult } from '../../index.js'
import { runtimeTools, type FixLists, type RuntimeView, type SchemaRow } from './grade-render.js'

/** The `--json` document: per namespace and per schema what the island now says, kept units included. */
export function jsonReport(
    now: string,
    namespaces: readonly GradeNamespaceResult[],
    results: readonly SchemaRow[],
    fixLists: FixLists,
    runtime: RuntimeView | null
): GradeJson {
    const fixes = fixLists.schemas
    // A single-test unit whose tool's tests ran through the FlowMCP runtime says so (`via: 'runtime'`, as the pretest's
    // results do).
    const unitView = (u: UnitResult, ran: ReadonlyMap<string, unknown> = new Map()): GradeJsonUnit => ({
        unit: u.unit,
        area: u.area,
        status: u.status,
        grade: u.aggregateGrade,
        kept: u.kept === true,
        ...(u.area === 'single-test' && u.kept !== true && ran.has(u.unit.slice('single-test/'.length))
            ? { via: 'runtime' }
            : {}),
        reason: u.reason,
        improvementHints: u.improvementHints ?? []
    })
    // Every judge call of the run (each namespace's count holds its schemas' and its own units'), with the usage the
    // judge reported and the estimate beside it.
    // A namespace whose own units were not reached has no count of its own: its schemas' are added instead.
    const none = judgeCallCountOf(newJudgeTally())
    const judgeCalls: JudgeCallCount = namespaces.reduce(
        (sum, ns) =>
            addJudgeCallCounts(
                sum,
                ns.judgeCalls ??
                    ns.schemas.reduce((own, row) => addJudgeCallCounts(own, row.result.grading?.judgeCalls), none)
            ),
        none
    )
    return {
        now,
        // The FlowMCP runtime that ran the handler tools' tests (`--runtime`), or null.
        runtime: runtime === null ? null : { version: runtime.version },
        judgeCalls,
        namespaces: namespaces.map((result) => ({
            namespace: result.namespace,
            grade: result.grade,
            provisionalGrade: result.provisionalGrade,
            mode: result.mode,
            units: result.units.map((u) => unitView(u)),
            rollupStatus: result.rollupStatus,
            rollupGrade: result.rollupGrade,
            judgeCalls: result.judgeCalls ?? null,
            indexPath: result.indexPath,
            // What to fix at the namespace level (its description, its About), most costly first (FixList).
            fixList: fixLists.namespaces.get(result) ?? [],
            errors: result.errors
        })),
        schemas: results.map((row) => ({
            resumed: row.resumed,
            file: row.file,
            grading:
                row.result.grading === null
                    ? null
                    : {
                          ...row.result.grading,
                          units: row.result.grading.units.map((u) => unitView(u, runtimeTools(runtime, row.file)))
                      },
            // Per tool, the tests the runtime ran and how many it answered with success.
            ...(runtimeTools(runtime, row.file).size > 0
                ? {
                      runtime: {
                          version: runtime?.version ?? null,
                          tools: Object.fromEntries(runtimeTools(runtime, row.file))
                      }
                  }
                : {}),
            // The open units, ready to be answered: emit-prompts --areas writes the same into an answers file.
            prompts: row.result.prompts.map((p) => ({ unit: p.unit, area: p.area, questions: p.questions })),
            // What to fix, most costly first (FixList).
            fixList: fixes.get(row) ?? [],
            errors: row.result.errors
        }))
    }
}
