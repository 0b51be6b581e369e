import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { Grading } from '../grading/grading.js'
import { validateGradingEntry } from '../grading/validate-entry.js'
import { AREAS, GRADING_MODES, type AggregateGrade, type GradingMode } from '../model/constants.js'
import { parseGradingFilename } from '../naming/grading-filename.js'
import type { GradingFacts, GradingFileInput } from './types.js'

const AGGREGATE_GRADES: readonly string[] = ['A', 'B', 'C', 'D', 'F', 'REJECTED']

function str(value: unknown): string | null {
    return typeof value === 'string' ? value : null
}

function summarize(issues: readonly Issue[]): string {
    const first = issues[0]
    if (first === undefined) return 'invalid'
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : ''
    return `${first.code} at ${first.path === '' ? '(root)' : first.path}: ${first.message}${more}`
}

/**
 * Reduces one grading file to the facts the rollup needs: validated with `validateGradingEntry`,
 * checked against its file name (area and persona must agree), and, for a valid full entry without a
 * veto, graded again with `Grading.computeAggregateGrade` to obtain `rawGrade` (01-model ⚠ A7).
 * A veto is recorded even when the entry is otherwise invalid: a rejection never gets lost.
 * @param input - one {@link GradingFileInput}
 * @param where - how messages name the file (its path relative to the index folder); defaults to the file name
 * @returns the facts, or `null` when the name is not a grading file name (the caller reports it)
 */
export function digestGradingFile(input: GradingFileInput, where: string = input.name): GradingFacts | null {
    if (input.facts !== undefined) return input.facts
    const parts = parseGradingFilename(input.name)
    if (parts === null) return null
    const base: GradingFacts = {
        file: input.name,
        timestamp: parts.timestamp,
        area: parts.area,
        basePersona: parts.basePersona,
        lens: parts.lens,
        problem: null,
        gradingId: null,
        gradingMode: null,
        aggregateGrade: null,
        rawGrade: null,
        normalizedScore: null,
        schemaHash: null,
        aboutHash: null,
        skillId: null,
        selectionId: null,
        veto: null,
        previousGradingId: null,
        scoringSystem: null,
        gradingSystem: null
    }
    if (input.problem !== undefined) return { ...base, problem: input.problem }
    const entry = input.entry
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
        return { ...base, problem: createIssue('IDX-012', '', { path: where, detail: 'not a JSON object' }) }
    }
    const e = entry as Record<string, unknown>
    const vetoRecord = e.categoricalVeto
    const veto = vetoRecord !== null && vetoRecord !== undefined ? (str((vetoRecord as Record<string, unknown>).triggeredBy) ?? 'unknown') : null
    const trigger = e.regradingTrigger
    const mode = str(e.gradingMode)
    const grade = str(e.aggregateGrade)
    const facts: GradingFacts = {
        ...base,
        gradingId: str(e.gradingId),
        gradingMode: mode !== null && (GRADING_MODES as readonly string[]).includes(mode) ? (mode as GradingMode) : null,
        aggregateGrade: grade !== null && AGGREGATE_GRADES.includes(grade) ? (grade as AggregateGrade) : null,
        schemaHash: str(e.schemaHash),
        aboutHash: str(e.aboutHash),
        skillId: str(e.skillId),
        selectionId: str(e.selectionId),
        veto,
        previousGradingId: trigger !== null && typeof trigger === 'object' ? str((trigger as Record<string, unknown>).previousGradingId) : null,
        scoringSystem: str(e.scoringSystem),
        gradingSystem: str(e.gradingSystem)
    }
    const errors = validateGradingEntry({ entry }).errors.filter((i) => i.severity === 'error')
    if (errors.length > 0) return { ...facts, problem: createIssue('IDX-012', '', { path: where, detail: summarize(errors) }) }
    if (e.area !== parts.area) {
        const area = (AREAS as readonly unknown[]).includes(e.area) ? String(e.area) : 'unknown'
        return { ...facts, problem: createIssue('IDX-010', '', { path: where, detail: `the file name says ${parts.area}, the entry says ${area}` }) }
    }
    if (parts.basePersona !== null) {
        const persona = e.persona as { basePersonaId?: unknown; lensId?: unknown } | undefined
        if (persona?.basePersonaId !== parts.basePersona || persona?.lensId !== parts.lens) {
            return { ...facts, problem: createIssue('IDX-010', '', { path: where, detail: `the file name says persona ${parts.basePersona}--${parts.lens}, the entry does not` }) }
        }
    }
    if (facts.gradingMode !== 'full' || veto !== null) return facts
    const aggregate = Grading.computeAggregateGrade({ entry })
    return { ...facts, rawGrade: aggregate.rawGrade, normalizedScore: aggregate.normalizedScore }
}
