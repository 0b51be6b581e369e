import { isObject } from '../model/object.js'
import { AGGREGATE_GRADES } from '../model/grades.js'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { computeAggregateGrade } from '../grading/grading.js'
import { checkEntry, validateGradingEntry } from '../grading/validate-entry.js'
import { SEVERITY, AREAS, GRADING_MODES, type AggregateGrade, type Area, type GradingMode } from '../model/constants.js'
import { parseGradingFilename } from '../naming/grading-filename.js'
import { validateGradingModel } from '../validation/validators.js'
import type { GradingFacts, GradingFileInput } from './types.js'

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
 * The entries {@link screenGradingFile} found to match the shipped schema, so that verifying one
 * later does not validate its schema again (it is the same parsed value, never handed out).
 */
const SCHEMA_PASSED = new WeakSet<object>()

function invalid(entry: unknown, where: string): Issue {
    const errors = validateGradingEntry({ entry }).errors.filter((i) => i.severity === SEVERITY.error)
    return createIssue('IDX-012', '', {
        path: where,
        detail: errors.length > 0 ? summarize(errors) : 'does not match grading-model.schema.json'
    })
}

/**
 * Phase 1 of reading a grading file, run on every file: the file name must follow the grammar, the
 * content must parse, match the shipped entry schema (`schemas/grading-model.schema.json`) and agree
 * with its name (area, persona). Extracts the fields the rollup needs. Cheap: no semantic rules yet.
 * @param input - one {@link GradingFileInput}
 * @param where - how messages name the file (its path relative to the index folder)
 * @returns unverified facts, or `null` when the name is not a grading file name
 */
export function screenGradingFile(input: GradingFileInput, where: string = input.name): GradingFacts | null {
    if (input.facts !== undefined) return input.facts
    const parts = parseGradingFilename(input.name)
    if (parts === null) return null
    const entry = input.entry
    const usable = input.problem === undefined && isObject(entry)
    const e = (usable ? entry : {}) as Record<string, unknown>
    const vetoRecord = e.categoricalVeto
    const trigger = e.regradingTrigger
    const mode = str(e.gradingMode)
    const grade = str(e.aggregateGrade)
    // One object per file, in the field order of GradingFacts: this runs on every grading file.
    const facts: GradingFacts = {
        file: input.name,
        timestamp: parts.timestamp,
        area: parts.area,
        basePersona: parts.basePersona,
        lens: parts.lens,
        problem: null,
        verified: false,
        gradingId: str(e.gradingId),
        gradingMode:
            mode !== null && (GRADING_MODES as readonly string[]).includes(mode) ? (mode as GradingMode) : null,
        aggregateGrade:
            grade !== null && (AGGREGATE_GRADES as readonly string[]).includes(grade)
                ? (grade as AggregateGrade)
                : null,
        rawGrade: null,
        normalizedScore: null,
        schemaHash: str(e.schemaHash),
        aboutHash: str(e.aboutHash),
        skillId: str(e.skillId),
        selectionId: str(e.selectionId),
        // A veto counts even in an otherwise broken entry: a rejection never gets lost.
        veto:
            vetoRecord !== null && vetoRecord !== undefined
                ? (str((vetoRecord as Record<string, unknown>).triggeredBy) ?? 'unknown')
                : null,
        previousGradingId:
            trigger !== null && typeof trigger === 'object'
                ? str((trigger as Record<string, unknown>).previousGradingId)
                : null,
        scoringSystem: str(e.scoringSystem),
        gradingSystem: str(e.gradingSystem)
    }
    if (input.problem !== undefined) return { ...facts, problem: input.problem, verified: true }
    if (!usable)
        return {
            ...facts,
            problem: createIssue('IDX-012', '', { path: where, detail: 'not a JSON object' }),
            verified: true
        }
    // The shipped entry schema (precompiled): the cheap screen every grading file passes through.
    if (!validateGradingModel(entry)) return { ...facts, problem: invalid(entry, where), verified: true }
    SCHEMA_PASSED.add(entry)
    if (e.area !== parts.area) {
        const area = (AREAS as readonly unknown[]).includes(e.area) ? String(e.area) : 'unknown'
        return {
            ...facts,
            problem: createIssue('IDX-010', '', {
                path: where,
                detail: `the file name says ${parts.area}, the entry says ${area}`
            }),
            verified: true
        }
    }
    if (parts.basePersona !== null) {
        const persona = e.persona as { basePersonaId?: unknown; lensId?: unknown } | undefined
        if (persona?.basePersonaId !== parts.basePersona || persona?.lensId !== parts.lens) {
            return {
                ...facts,
                problem: createIssue('IDX-010', '', {
                    path: where,
                    detail: `the file name says persona ${parts.basePersona}--${parts.lens}, the entry does not`
                }),
                verified: true
            }
        }
    }
    return facts
}

/**
 * Phase 2, run only on the entries a status rests on (see {@link needsVerification}): every semantic
 * rule of `validateGradingEntry`, and for a full entry without a veto the `rawGrade` and
 * `normalizedScore` of `Grading.computeAggregateGrade` (01-model ⚠ A7).
 * @returns verified facts; an entry that fails gets an IDX-012 problem
 */
export function verifyGradingFacts(facts: GradingFacts, entry: unknown, where: string = facts.file): GradingFacts {
    if (facts.verified) return facts
    const checked = checkEntry(
        entry,
        undefined,
        undefined,
        false,
        typeof entry === 'object' && entry !== null && SCHEMA_PASSED.has(entry)
    )
    const errors = checked.errors.filter((i) => i.severity === SEVERITY.error)
    if (errors.length > 0)
        return {
            ...facts,
            verified: true,
            problem: createIssue('IDX-012', '', { path: where, detail: summarize(errors) })
        }
    if (facts.gradingMode !== 'full' || facts.veto !== null) return { ...facts, verified: true }
    // The validation recomputed the grade already (untraced) whenever the entry is a full one of this grading system.
    const aggregate = checked.recomputed ?? computeAggregateGrade({ entry })
    return { ...facts, verified: true, rawGrade: aggregate.rawGrade, normalizedScore: aggregate.normalizedScore }
}

/** Whether a screened fact may decide a status: a usable full entry without a veto. */
export function mayDecide(facts: GradingFacts): boolean {
    return facts.problem === null && facts.gradingMode === 'full' && facts.veto === null
}

/**
 * Which screened facts of one `_gradings/` folder need phase 2: per area the newest entry that may
 * decide (the newest full entry — a node's status rests on it), and every such entry that names a
 * previous grading (it may lift a veto, 01-model ⚠ A11). Older entries are audit trail: they are
 * screened, not re-verified.
 * @returns the indexes into `facts` to verify
 */
export function needsVerification(facts: ReadonlyArray<GradingFacts | null>): Set<number> {
    const newest = new Map<Area, number>()
    const out = new Set<number>()
    facts.forEach((f, i) => {
        if (f === null || f.verified || !mayDecide(f)) return
        if (f.previousGradingId !== null) out.add(i)
        const cur = newest.get(f.area)
        const c = cur === undefined ? null : (facts[cur] as GradingFacts)
        if (c === null || f.timestamp > c.timestamp || (f.timestamp === c.timestamp && f.file > c.file))
            newest.set(f.area, i)
    })
    for (const i of newest.values()) out.add(i)
    return out
}

/**
 * Reduces one grading file to the facts the rollup needs, fully verified: {@link screenGradingFile}
 * then {@link verifyGradingFacts}.
 * @param input - one {@link GradingFileInput}
 * @param where - how messages name the file (its path relative to the index folder); defaults to the file name
 * @returns the facts, or `null` when the name is not a grading file name (the caller reports it)
 */
export function digestGradingFile(input: GradingFileInput, where: string = input.name): GradingFacts | null {
    const screened = screenGradingFile(input, where)
    return screened === null || screened.verified ? screened : verifyGradingFacts(screened, input.entry, where)
}
