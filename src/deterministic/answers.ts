import { Areas } from '../areas/areas.js'
import { AREAS, SEVERITY } from '../model/constants.js'
import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import { codesLowering } from '../errors/grade-effect.js'
import type { Issue } from '../errors/types.js'
import { validateGraderIdentity, validateVetoRecord } from '../grading/veto-record.js'
import type { NaReason, Score } from '../model/constants.js'
import type { CategoricalVeto, GradingAnswer, GraderIdentity } from '../model/types.js'
import type { QuestionId } from '../model/question-ids.js'
import type { PretestResult, PretestToolSummary } from '../pretest/data-pretest.js'
import { checkKeyDomains, type KeyDomainResult } from '../schema/key-domain.js'
import type { MainValidation } from '../schema/schema-check.js'
import { scanSource, type SecurityFinding, type SecurityScanResult } from '../schema/security-scan.js'
import { isNonEmptyString, isRecord, keysOf, own, requiredServerParamsOf, serverParamsUsedBy } from '../schema/shape.js'
import { validateMain } from '../schema/validate-main.js'
import { isIsoDateTime } from '../time.js'
import { PACKAGE_VERSION } from '../version.js'
import { explainAnswer } from './explain.js'
import { guardStatics } from '../errors/guard.js'
import { objectArg, parseArgs, says, wholeArg } from '../validation/args.js'
import { definedFields } from '../model/fields.js'

/** One catalogue row as the caller passes it (the Areas catalogue owns the rows; nothing is hard-coded here). */
export interface QuestionRow {
    readonly id: string
    readonly area: string
    readonly weight: number
    readonly determinism: string
    readonly dimension: string
}

/** Question ids this module adds beyond the reference catalogue (01-model §11 dimensions). */
export const EXTRA_QUESTION_IDS = Object.freeze({
    apiAvailability: 'Q-api-availability',
    security: 'Q-security',
    schemaStructure: 'Q-schema-structure'
})
/** The texts of the extra questions, as every report (SARIF rules, the HTML page) words them. */
export const EXTRA_QUESTION_TEXTS: Readonly<Record<string, string>> = Object.freeze({
    [EXTRA_QUESTION_IDS.apiAvailability]: 'Does the API answer the schema tests (the data pretest)?',
    [EXTRA_QUESTION_IDS.security]:
        'Is the schema free of security findings (code patterns, keys in comments, output writers next to keys)?',
    [EXTRA_QUESTION_IDS.schemaStructure]:
        'Does the schema pass the runtime validation and the stricter rules of the spec?'
})
/**
 * Weights used for the extra questions when the caller's catalogue has no row for them. A row
 * with the same id always wins. Changing them is a gradingSystem bump.
 */
export const DEFAULT_EXTRA_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
    'Q-api-availability': 1,
    'Q-security': 1,
    'Q-schema-structure': 1
})
/**
 * `Q-security` scoring (scale 1–5): veto evidence, a key in a comment, or a stdout writer next to
 * a key gives `fail`; otherwise 5.0 minus 1.0 per distinct finding code (0.5 for a writer far from
 * any key), never below 1.0.
 */
export const SECURITY_SCORE_V1 = Object.freeze({ clean: 5, perCode: 1, farWriter: 0.5, floor: 1 })
/**
 * Spec-strict findings: rules of the spec text that the FlowMCP runtime does not enforce. They never
 * block; each distinct code lowers `Q-schema-structure` (see {@link SCHEMA_STRUCTURE_SCORE_V1}). The catalogue's
 * grade column names them (`LOWERS_STRUCTURE`), so a new one is one row there.
 */
export const SPEC_STRICT_CODES: readonly string[] = /* @__PURE__ */ codesLowering('Q-schema-structure')
/**
 * `Q-schema-structure` scoring: a runtime error gives `fail`; a schema the runtime accepts gives
 * `pass` when the spec's stricter rules hold too, otherwise 5.0 minus 0.5 per distinct spec-strict
 * code, never below 3.0 (what the runtime runs is never graded as broken).
 */
export const SCHEMA_STRUCTURE_SCORE_V1 = Object.freeze({ clean: 5, perCode: 0.5, floor: 3 })

/** The library's own identity, used when no `grader` is passed. */
export const DEFAULT_GRADER: GraderIdentity = Object.freeze({
    kind: 'script',
    name: 'flowmcp-grading/deterministic',
    version: PACKAGE_VERSION
})

/** Something that keeps an area or a tool from being graded in full. */
export interface BlockedArea {
    readonly area: string
    readonly tool?: string
    readonly reason: string
}

/** Result of {@link DeterministicAnswers.build}. */
export interface DeterministicResult {
    readonly byArea: {
        readonly 'single-test': Readonly<Record<string, GradingAnswer[]>>
        readonly 'tools-aggregate-schema': GradingAnswer[]
        readonly 'about-namespace': GradingAnswer[]
    }
    /** The first veto found (`api-key-domain-mismatch` before `malicious-module`), ready for `Veto.applyVeto`. */
    readonly veto: CategoricalVeto | null
    /** Every veto the evidence supports, in that order. */
    readonly vetoes: CategoricalVeto[]
    readonly blocked: BlockedArea[]
    /** Deterministic questions left to the grader (no certain answer): the unit's prompt says why. */
    readonly deferred: DeferredQuestion[]
    readonly errors: Issue[]
}

/** A deterministic question the code could not answer with certainty; the LLM unit answers it instead. */
export interface DeferredQuestion {
    readonly area: string
    /** The tool unit it belongs to; absent for every unit of the area. */
    readonly tool?: string
    readonly questionId: string
    readonly note: string
}

/** `Q-schema-structure` from a validation: `fail` on errors, else see {@link SCHEMA_STRUCTURE_SCORE_V1}. */
export function structureScore(validation: MainValidation): { score: Score; strictCodes: string[] } {
    const strictCodes = [
        ...new Set(validation.errors.filter((e) => SPEC_STRICT_CODES.includes(e.code)).map((e) => e.code))
    ].sort()
    if (!validation.valid) return { score: 'fail', strictCodes }
    if (strictCodes.length === 0) return { score: 'pass', strictCodes }
    return {
        score: Math.max(
            SCHEMA_STRUCTURE_SCORE_V1.floor,
            SCHEMA_STRUCTURE_SCORE_V1.clean - strictCodes.length * SCHEMA_STRUCTURE_SCORE_V1.perCode
        ),
        strictCodes
    }
}

interface Context {
    readonly rows: ReadonlyMap<string, QuestionRow>
    readonly grader: GraderIdentity
    readonly now: string
    /** What the answers are about, in words (`tool getPrice`, `the schema`): the subject of their reasoning. */
    readonly subject: string
}

const NA = 'n/a' as const

function answer(
    ctx: Context,
    row: QuestionRow,
    score: Score,
    evidence: Record<string, unknown>,
    naReason?: NaReason,
    timestamp?: string
): GradingAnswer {
    return {
        // The rows are the catalogue's (or the extra questions'); entry validation reports any other id (GRD-068).
        questionId: row.id as QuestionId,
        score,
        ...(score === NA && naReason !== undefined ? { naReason } : {}),
        weight: row.weight,
        determinism: 'deterministic',
        graderIdentity: ctx.grader,
        timestamp: timestamp ?? ctx.now,
        evidence,
        reasoning: explainAnswer({
            questionId: row.id,
            dimension: row.dimension,
            score,
            ...definedFields({ naReason }),
            evidence,
            subject: ctx.subject
        })
    }
}

// Row lists already found valid that can never change: frozen, every row a frozen object of data
// properties. Checked once, then taken as they are (the catalogue's list is passed for every schema).
const CHECKED_ROWS = new WeakSet<object>()

function immutableRows(value: readonly unknown[]): boolean {
    return (
        Object.isFrozen(value) &&
        value.every(
            (row) =>
                row !== null &&
                typeof row === 'object' &&
                Object.isFrozen(row) &&
                Object.values(Object.getOwnPropertyDescriptors(row)).every(
                    (d) => 'value' in d && (d.value === null || typeof d.value !== 'object')
                )
        )
    )
}

function checkQuestions(value: unknown, errors: Issue[]): readonly QuestionRow[] {
    if (Array.isArray(value) && CHECKED_ROWS.has(value)) return value as readonly QuestionRow[]
    const before = errors.length
    const rows = checkQuestionRows(value, errors)
    if (Array.isArray(value) && rows.length === value.length && errors.length === before && immutableRows(value))
        CHECKED_ROWS.add(value)
    return rows
}

/** The codes and wording of every argument check of this module (an object-valued `undefined` is missing). */
const ARGS = { missing: 'DET-001', mismatch: 'DET-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const

const ID_WORDING = { expected: 'string matching ^Q-.+$', actual: 'value', field: 'id', missing: false } as const
const WEIGHT_WORDING = { expected: 'finite number >= 0', actual: 'value', field: 'weight', missing: false } as const
const ROW_ID = v.custom<string>((id) => typeof id === 'string' && /^Q-.+$/.test(id), says(ID_WORDING))
const ROW_WEIGHT = v.custom<number>((w) => typeof w === 'number' && Number.isFinite(w) && w >= 0, says(WEIGHT_WORDING))
// The id is checked again with the weight only to carry its type on (it has passed by then).
const WEIGHTED = v.looseObject({ id: ROW_ID, weight: ROW_WEIGHT }, says(WEIGHT_WORDING))
/** One catalogue row: an object, then its id, then its weight, then the rest (the first wrong one reported). */
const QUESTION_ROW = v.pipe(
    objectArg(),
    v.looseObject({ id: ROW_ID }, says(ID_WORDING)),
    WEIGHTED,
    v.check<v.InferOutput<typeof WEIGHTED>, string>(
        (row) => isNonEmptyString(row.area) && isNonEmptyString(row.dimension) && isNonEmptyString(row.determinism),
        says({ expected: '{ id, area, weight, determinism, dimension } with string fields', got: 'incomplete row' })
    )
)
const QUESTIONS = v.looseObject({ questions: v.array(QUESTION_ROW, says('array of catalogue rows')) })

function checkQuestionRows(value: unknown, errors: Issue[]): QuestionRow[] {
    const parsed = parseArgs(QUESTIONS, { questions: value }, ARGS, STYLE)
    errors.push(...parsed.errors)
    // Rows are all or nothing: a wrong row stops the build, so no partial list is ever read.
    return (parsed.value?.questions ?? []).map((row) => ({
        id: row.id,
        area: row.area as string,
        weight: row.weight,
        determinism: row.determinism as string,
        dimension: row.dimension as string
    }))
}

// A wrong `now` or grader kind is written as it came.
const NOW = v.looseObject({
    now: v.custom<string>(isIsoDateTime, says({ expected: 'ISO-8601 date-time', actual: 'value' }))
})
const SCRIPT_GRADER = v.looseObject({
    kind: v.literal('script', says({ expected: "'script' (deterministic answers come from code)", actual: 'value' }))
})

function checkCommon(input: Record<string, unknown>, errors: Issue[]): { grader: GraderIdentity; now: string } {
    errors.push(...parseArgs(NOW, input, ARGS, STYLE).errors)
    let grader = DEFAULT_GRADER
    if (input.grader !== undefined) {
        // The identity's own shape is GRD-*: only a well-formed identity is asked whether it is a script.
        const issues = validateGraderIdentity(input.grader, '/grader')
        const at = ['grader']
        const script = issues.length === 0 ? parseArgs(SCRIPT_GRADER, input.grader, ARGS, { ...STYLE, at }) : null
        errors.push(...issues, ...(script?.errors ?? []))
        if (script !== null && script.value !== null) grader = input.grader as GraderIdentity
    }
    return { grader, now: input.now as string }
}

/** Index of the rows this module answers: deterministic rows by dimension, the extra ids by id. */
function rowIndex(
    rows: readonly QuestionRow[],
    area: string,
    dims: readonly string[],
    errors: Issue[]
): Map<string, QuestionRow> {
    const index = new Map<string, QuestionRow>()
    rows.forEach((row, i) => {
        if (row.area !== area) return
        if (row.determinism === 'deterministic') {
            if (dims.includes(row.dimension)) index.set(row.dimension, row)
            else
                errors.push(
                    createIssue('DET-WARN-001', pointer('questions', i), { id: row.id, dimension: row.dimension })
                )
        }
    })
    return index
}

function extraRow(rows: readonly QuestionRow[], id: string, area: string): QuestionRow {
    const row = rows.find((r) => r.id === id)
    return (
        row ?? {
            id,
            area,
            weight: DEFAULT_EXTRA_WEIGHTS[id] ?? 1,
            determinism: 'deterministic',
            dimension: id.slice(2)
        }
    )
}

function findingEvidence(f: SecurityFinding): Record<string, unknown> {
    return {
        code: f.code,
        label: f.label,
        line: f.line,
        column: f.column,
        vetoClass: f.vetoClass,
        ...definedFields({ module: f.module, nearServerParam: f.nearServerParam })
    }
}

/** `Q-security` from a scan: `fail`, or 5.0 minus the penalties (see {@link SECURITY_SCORE_V1}). */
export function securityScore(findings: readonly SecurityFinding[]): {
    score: Score
    penalty: number
    failedBy: string[]
} {
    const failedBy = findings
        .filter(
            (f) =>
                f.vetoClass === 'malicious-module' ||
                f.code === 'SEC-015' ||
                (f.code === 'SEC-016' && f.nearServerParam === true)
        )
        .map((f) => `${f.code}@${f.line}:${f.column}`)
    if (failedBy.length > 0)
        return { score: 'fail', penalty: SECURITY_SCORE_V1.clean - SECURITY_SCORE_V1.floor, failedBy }
    const codes = new Set(findings.filter((f) => f.code !== 'SEC-016').map((f) => f.code))
    const writers = findings.some((f) => f.code === 'SEC-016') ? SECURITY_SCORE_V1.farWriter : 0
    const penalty = codes.size * SECURITY_SCORE_V1.perCode + writers
    return { score: Math.max(SECURITY_SCORE_V1.floor, SECURITY_SCORE_V1.clean - penalty), penalty, failedBy }
}

/** Tool names that collide once case, `-` and `_` are ignored (`getBalance` / `get_balance`). */
export function nameCollisions(names: readonly string[]): string[][] {
    const groups = new Map<string, string[]>()
    for (const name of names) {
        const key = name.toLowerCase().replace(/[-_]/g, '')
        groups.set(key, [...(groups.get(key) ?? []), name])
    }
    return [...groups.values()].filter((g) => g.length > 1)
}

/** The declared About resource of one schema, judged against the convention (02 §7). */
export function aboutDeclaration(main: unknown): { declared: boolean; conforming: boolean; problems: string[] } {
    const about = own(own(main, 'resources'), 'about')
    if (about === undefined) return { declared: false, conforming: false, problems: [] }
    const problems: string[] = []
    if (own(about, 'source') !== 'markdown') problems.push("source is not 'markdown'")
    if (own(about, 'origin') !== 'inline') problems.push("origin is not 'inline'")
    const namespace = own(main, 'namespace')
    if (typeof namespace === 'string' && own(about, 'name') !== `${namespace}-about.md`)
        problems.push(`name is not '${namespace}-about.md'`)
    if (!isNonEmptyString(own(about, 'description'))) problems.push('no description')
    return { declared: true, conforming: problems.length === 0, problems }
}

function keyDomainVeto(ctx: Context, keyDomain: KeyDomainResult): CategoricalVeto[] {
    if (keyDomain.mismatches.length === 0) return []
    const evidence = keyDomain.mismatches
        .map((m) => `requiredServerParams ${m.param} (${m.pointer}) names "${m.brand}", not the API host ${m.apiHost}`)
        .join('; ')
    return [{ triggeredBy: 'api-key-domain-mismatch', graderIdentity: ctx.grader, evidence, timestamp: ctx.now }]
}

function maliciousVeto(ctx: Context, security: SecurityScanResult | null): CategoricalVeto[] {
    const hits = security?.findings.filter((f) => f.vetoClass === 'malicious-module') ?? []
    if (hits.length === 0) return []
    const evidence = hits
        .map(
            (f) =>
                `${f.code} ${f.label}${f.module !== undefined ? ` '${f.module}'` : ''} at line ${f.line}, column ${f.column}`
        )
        .join('; ')
    return [{ triggeredBy: 'malicious-module', graderIdentity: ctx.grader, evidence, timestamp: ctx.now }]
}

const SINGLE_TEST_DIMS = ['docsUrlReachable', 'outputSchemaMatch', 'apiKeyDomainMatch'] as const
const SCHEMA_DIMS = ['routesUniqueNames'] as const
const ABOUT_DIMS = ['aboutRouteExists'] as const

/** Arguments of {@link DeterministicAnswers.build}. */
export interface BuildInput {
    readonly main: unknown
    /** The schema module's text; without it `Q-security` is `n/a` (blocked-by-precondition). */
    readonly source?: string
    readonly pretest?: PretestResult | null
    /** `SchemaCheck.validateMain` result; computed from `main` when absent. */
    readonly validation?: MainValidation | null
    /** `SecurityScan.scan` result; computed from `source` when absent. */
    readonly security?: SecurityScanResult | null
    /** `KeyDomain.check` result; computed from `main` when absent. */
    readonly keyDomain?: KeyDomainResult | null
    /** The catalogue rows (`{ id, area, weight, determinism, dimension }`). */
    readonly questions: readonly QuestionRow[]
    readonly now: string
    readonly grader?: GraderIdentity
    /** Whether `resources/about/` holds the About file (island layer); `undefined` = not checked. */
    readonly aboutFileExists?: boolean
}

function emptyResult(errors: Issue[]): DeterministicResult {
    return {
        byArea: { 'single-test': {}, 'tools-aggregate-schema': [], 'about-namespace': [] },
        veto: null,
        vetoes: [],
        blocked: [],
        deferred: [],
        errors
    }
}

/** The checked input's fields every stage reads; only built when the input has no error. */
interface CheckedInput {
    readonly rows: readonly QuestionRow[]
    readonly grader: GraderIdentity
    readonly now: string
}

const INPUT = objectArg()
const MAIN = v.looseObject({ main: objectArg() })
const PRETEST_SHAPE = v.looseObject({ ran: v.boolean(), tools: objectArg(), docs: v.array(v.unknown()) })
const BUILD_REST = v.looseObject({
    source: v.optional(v.string()),
    aboutFileExists: v.optional(v.boolean()),
    pretest: v.nullish(wholeArg(PRETEST_SHAPE, { expected: 'DataPretest.run result', actual: 'type' }))
})

/** main, questions, now, grader, source, aboutFileExists and pretest, in that order. */
function checkBuildInput(input: Record<string, unknown>, errors: Issue[]): CheckedInput {
    errors.push(...parseArgs(MAIN, input, ARGS, STYLE).errors)
    const rows = checkQuestions(input.questions, errors)
    const { grader, now } = checkCommon(input, errors)
    errors.push(...parseArgs(BUILD_REST, input, ARGS, STYLE).errors)
    return { rows, grader, now }
}

/** The checks the answers rest on: the caller's results when given, else computed here. */
interface Evidence {
    readonly validation: MainValidation
    readonly keyDomain: KeyDomainResult
    readonly security: SecurityScanResult | null
}

/** Structural validation, key domains and the security scan; a key-domain warning is passed on. */
function gatherEvidence(input: Record<string, unknown>, main: unknown, errors: Issue[]): Evidence {
    const given = input.validation
    const structural =
        isRecord(given) && typeof given.valid === 'boolean' && Array.isArray(given.errors) ? null : validateMain(main)
    const validation: MainValidation =
        structural === null
            ? (given as unknown as MainValidation)
            : { valid: !structural.some((e) => e.severity === SEVERITY.error), errors: structural }
    const keyDomain =
        isRecord(input.keyDomain) && Array.isArray(input.keyDomain.mismatches)
            ? (input.keyDomain as unknown as KeyDomainResult)
            : checkKeyDomains(main)
    errors.push(...(Array.isArray(keyDomain.errors) ? keyDomain.errors.filter((e) => e.code === 'SEC-WARN-002') : []))
    const security =
        isRecord(input.security) && Array.isArray(input.security.findings)
            ? (input.security as unknown as SecurityScanResult)
            : typeof input.source === 'string'
              ? scanSource(input.source, own(main, 'requiredServerParams'))
              : null
    return { validation, keyDomain, security }
}

/** What keeps areas or tools from being graded in full: a failed structural check, a pretest not run, blocked tools. */
function blockedAreas(validation: MainValidation, pretest: PretestResult | null): BlockedArea[] {
    const blocked: BlockedArea[] = []
    if (!validation.valid) {
        blocked.push(
            { area: 'single-test', reason: 'structural-validation-failed' },
            { area: 'tools-aggregate-schema', reason: 'structural-validation-failed' }
        )
    }
    if (pretest === null || !pretest.ran)
        blocked.push({ area: 'single-test', reason: `live-pretest-not-run (${pretest?.reason ?? 'no-pretest'})` })
    else for (const b of pretest.blocked) blocked.push({ area: 'single-test', tool: b.tool, reason: b.reason })
    return blocked
}

/** What every tool's single-test answers share: the schema's facts and the pretest. */
interface SingleTestEnv {
    readonly ctx: Context
    readonly main: unknown
    readonly pretest: PretestResult | null
    readonly keyDomain: KeyDomainResult
    /** The area's deterministic rows by dimension. */
    readonly single: ReadonlyMap<string, QuestionRow>
    readonly availabilityRow: QuestionRow
    readonly declaredParams: readonly string[]
    readonly usedBy: ReadonlyMap<string, string[]>
    readonly usedAnywhere: ReadonlySet<string>
    readonly mismatchedParams: ReadonlySet<string>
    readonly notRun: { readonly pretest: string }
    readonly docsCount: number
}

/** One tool as its answers see it. */
interface ToolFacts {
    readonly name: string
    readonly tool: unknown
    readonly ctx: Context
    readonly summary: PretestToolSummary | undefined
    /** A mismatched key reaches this tool: its output and availability fail. */
    readonly affected: boolean
    readonly vetoEvidence: Record<string, unknown>
    /** The pretest could not call it on purpose (key-gated, needs tests, state-changing). */
    readonly gated: boolean
}

function singleTestEnv(
    ctx: Context,
    main: unknown,
    pretest: PretestResult | null,
    keyDomain: KeyDomainResult,
    rows: readonly QuestionRow[],
    single: ReadonlyMap<string, QuestionRow>
): SingleTestEnv {
    const tools = own(main, 'tools')
    const usedBy = new Map(keysOf(tools).map((t) => [t, serverParamsUsedBy(main, own(tools, t))]))
    const docsList = own(main, 'docs')
    return {
        ctx,
        main,
        pretest,
        keyDomain,
        single,
        availabilityRow: extraRow(rows, EXTRA_QUESTION_IDS.apiAvailability, 'single-test'),
        declaredParams: requiredServerParamsOf(main),
        usedBy,
        usedAnywhere: new Set([...usedBy.values()].flat()),
        mismatchedParams: new Set(keyDomain.mismatches.map((m) => m.param)),
        notRun: { pretest: pretest === null ? 'not-passed' : (pretest.reason ?? 'not-run') },
        docsCount: Array.isArray(docsList)
            ? docsList.filter((d) => typeof d === 'string' && /^https?:\/\//i.test(d)).length
            : 0
    }
}

function toolFacts(env: SingleTestEnv, name: string): ToolFacts {
    const { pretest, mismatchedParams, usedAnywhere } = env
    const summary: PretestToolSummary | undefined =
        pretest !== null && Object.hasOwn(pretest.tools, name) ? pretest.tools[name] : undefined
    const used = env.usedBy.get(name) ?? []
    // A mismatched key the tools do not visibly use still affects every tool (it is loaded with the schema).
    const affected =
        used.some((p) => mismatchedParams.has(p)) || [...mismatchedParams].some((p) => !usedAnywhere.has(p))
    const vetoEvidence = {
        vetoed: 'api-key-domain-mismatch',
        params: [...mismatchedParams].filter((p) => used.includes(p) || !usedAnywhere.has(p))
    }
    const gated =
        summary !== undefined &&
        (summary.class === 'key-gated' || summary.class === 'needs-tests' || summary.class === 'state-changing')
    return {
        name,
        tool: own(own(env.main, 'tools'), name),
        ctx: { ...env.ctx, subject: `tool ${name}` },
        summary,
        affected,
        vetoEvidence,
        gated
    }
}

function docsAnswer(env: SingleTestEnv, t: ToolFacts): GradingAnswer | null {
    const row = env.single.get('docsUrlReachable')
    if (row === undefined) return null
    const { pretest, docsCount } = env
    if (docsCount === 0) return answer(t.ctx, row, 'fail', { docs: 0, note: 'main.docs lists no URL' })
    if (pretest === null || !pretest.ran)
        return answer(t.ctx, row, NA, { ...env.notRun, docs: docsCount }, 'blocked-by-precondition')
    if (pretest.docs.length === 0)
        return answer(
            t.ctx,
            row,
            NA,
            { docs: docsCount, note: 'docs URLs were not checked (checkDocs: false)' },
            'blocked-by-precondition'
        )
    const reachable = pretest.docs.filter((d) => d.reachable).length
    return answer(
        t.ctx,
        row,
        reachable > 0 ? 'pass' : 'fail',
        { checked: pretest.docs.length, reachable, httpStatuses: pretest.docs.map((d) => d.httpStatus) },
        undefined,
        pretest.checkedAt ?? env.ctx.now
    )
}

/**
 * Where the first test of a tool whose response did not match its output schema went wrong: the JSON Pointer, the
 * expected and the actual type (`test 0: /result: expected string, got array`), as the pretest found it. Never a value.
 */
function mismatchNote(pretest: PretestResult, tool: string): { note?: string } {
    const found = pretest.results.find(
        (r) => r.tool === tool && typeof r.error === 'string' && r.error.startsWith('DPT-018')
    )
    if (found === undefined) return {}
    const detail = (found.error as string).replace(/^DPT-018: output schema mismatch: /, '')
    return { note: `the response of test ${found.testIndex} does not match output.schema at ${detail}` }
}

function outputAnswer(env: SingleTestEnv, t: ToolFacts): GradingAnswer | null {
    const row = env.single.get('outputSchemaMatch')
    if (row === undefined) return null
    const { pretest } = env
    const { summary } = t
    if (!isRecord(own(own(t.tool, 'output'), 'schema')))
        return answer(
            t.ctx,
            row,
            NA,
            { tool: t.name, note: 'the tool declares no output.schema' },
            'not-applicable-to-tool-type'
        )
    if (t.affected) return answer(t.ctx, row, 'fail', t.vetoEvidence)
    if (pretest === null || !pretest.ran || summary === undefined)
        return answer(t.ctx, row, NA, env.notRun, 'blocked-by-precondition')
    if (t.gated || summary.outputSchemaMatch === null)
        return answer(
            t.ctx,
            row,
            NA,
            { class: summary.class, working: summary.working, note: 'no working response to compare' },
            'blocked-by-precondition'
        )
    return answer(
        t.ctx,
        row,
        summary.outputSchemaMatch ? 'pass' : 'fail',
        { ...mismatchNote(pretest, t.name), working: summary.working, matched: summary.outputSchemaMatch },
        undefined,
        pretest.checkedAt ?? env.ctx.now
    )
}

/** Uncertain keys (the root names no callable host) are the grader's to judge: no code answer then. */
function keyDomainUndecided(keyDomain: KeyDomainResult): boolean {
    return keyDomain.mismatches.length === 0 && (keyDomain.uncertain ?? []).length > 0
}

function keyDomainAnswer(env: SingleTestEnv, t: ToolFacts): GradingAnswer | null {
    const row = env.single.get('apiKeyDomainMatch')
    const { keyDomain } = env
    if (row === undefined || keyDomainUndecided(keyDomain)) return null
    if (env.declaredParams.length === 0)
        return answer(
            t.ctx,
            row,
            NA,
            { requiredServerParams: 0, note: 'the schema needs no key' },
            'not-applicable-to-tool-type'
        )
    if (keyDomain.apiHost === null)
        return answer(t.ctx, row, NA, { note: 'main.root names no host' }, 'blocked-by-precondition')
    const checked = keyDomain.checked.map((c) => ({
        param: c.param,
        verdict: c.verdict,
        brand: c.brand,
        rule: c.rule,
        matched: c.matched
    }))
    return answer(t.ctx, row, keyDomain.mismatches.length > 0 ? 'fail' : 'pass', {
        apiHost: keyDomain.apiHost,
        checked
    })
}

function availabilityAnswer(env: SingleTestEnv, t: ToolFacts): GradingAnswer {
    const row = env.availabilityRow
    const { pretest } = env
    const { summary } = t
    if (t.affected) return answer(t.ctx, row, 'fail', t.vetoEvidence)
    if (pretest === null || !pretest.ran || summary === undefined)
        return answer(t.ctx, row, NA, env.notRun, 'blocked-by-precondition')
    if (t.gated)
        return answer(
            t.ctx,
            row,
            NA,
            { class: summary.class, missingServerParams: summary.missingServerParams },
            'blocked-by-precondition'
        )
    const httpStatuses = pretest.results
        .filter((r) => r.tool === t.name && r.status !== 'duplicate')
        .map((r) => r.httpStatus)
    return answer(
        t.ctx,
        row,
        summary.working > 0 ? 'pass' : 'fail',
        { working: summary.working, distinct: summary.distinct, bar: summary.bar, httpStatuses },
        undefined,
        pretest.checkedAt ?? env.ctx.now
    )
}

/** One tool's single-test answers: docs, output schema, key domain, availability, each when it has a row. */
function toolAnswers(env: SingleTestEnv, name: string): GradingAnswer[] {
    const t = toolFacts(env, name)
    return [docsAnswer(env, t), outputAnswer(env, t), keyDomainAnswer(env, t), availabilityAnswer(env, t)].filter(
        (a): a is GradingAnswer => a !== null
    )
}

function securityAnswer(ctx: Context, row: QuestionRow, security: SecurityScanResult | null): GradingAnswer {
    if (security === null)
        return answer(ctx, row, NA, { note: 'no source text was scanned' }, 'blocked-by-precondition')
    if (security.errors.some((e) => e.severity === SEVERITY.error && e.path === '/source'))
        return answer(
            ctx,
            row,
            NA,
            { note: 'the source could not be scanned', codes: security.errors.map((e) => e.code) },
            'blocked-by-precondition'
        )
    const { score, penalty, failedBy } = securityScore(security.findings)
    return answer(ctx, row, score, {
        findings: security.findings.slice(0, 50).map(findingEvidence),
        findingCount: security.findings.length,
        modules: security.modules,
        penalty,
        failedBy
    })
}

/** tools-aggregate-schema: unique tool names, then schema structure, then security. */
function schemaAggregateAnswers(
    ctx: Context,
    rows: readonly QuestionRow[],
    toolNames: readonly string[],
    evidence: Evidence,
    errors: Issue[]
): GradingAnswer[] {
    const schemaRows = rowIndex(rows, 'tools-aggregate-schema', SCHEMA_DIMS, errors)
    const aggregate: GradingAnswer[] = []
    const uniqueRow = schemaRows.get('routesUniqueNames')
    if (uniqueRow !== undefined) {
        if (toolNames.length === 0)
            aggregate.push(answer(ctx, uniqueRow, NA, { tools: 0 }, 'not-applicable-to-tool-type'))
        else {
            const collisions = nameCollisions(toolNames)
            aggregate.push(
                answer(ctx, uniqueRow, collisions.length === 0 ? 'pass' : 'fail', { tools: toolNames, collisions })
            )
        }
    }
    const { validation } = evidence
    const structureRow = extraRow(rows, EXTRA_QUESTION_IDS.schemaStructure, 'tools-aggregate-schema')
    const structuralErrors = validation.errors.filter((e) => e.severity === SEVERITY.error)
    const structuralWarnings = validation.errors.filter((e) => e.severity === SEVERITY.warning)
    const structure = structureScore(validation)
    aggregate.push(
        answer(ctx, structureRow, structure.score, {
            errors: structuralErrors.length,
            warnings: structuralWarnings.length,
            specStrictCodes: structure.strictCodes,
            codes: [...new Set(validation.errors.map((e) => e.code))].slice(0, 30)
        })
    )
    aggregate.push(
        securityAnswer(ctx, extraRow(rows, EXTRA_QUESTION_IDS.security, 'tools-aggregate-schema'), evidence.security)
    )
    return aggregate
}

/** about-namespace, this schema's part: whether it declares the About by the convention and the file exists. */
function aboutAnswers(
    ctx: Context,
    rows: readonly QuestionRow[],
    main: unknown,
    aboutFileExists: boolean | undefined,
    errors: Issue[]
): GradingAnswer[] {
    const aboutRows = rowIndex(rows, 'about-namespace', ABOUT_DIMS, errors)
    const aboutRow = aboutRows.get('aboutRouteExists')
    const declaration = aboutDeclaration(main)
    if (aboutRow === undefined || !declaration.declared) return []
    if (!declaration.conforming)
        return [answer(ctx, aboutRow, 'fail', { declared: true, problems: declaration.problems })]
    if (aboutFileExists === undefined)
        return [
            answer(
                ctx,
                aboutRow,
                NA,
                { declared: true, note: 'the About file was not looked up' },
                'blocked-by-precondition'
            )
        ]
    return [answer(ctx, aboutRow, aboutFileExists ? 'pass' : 'fail', { declared: true, fileExists: aboutFileExists })]
}

/** The key-domain question handed to the grader when the check could not decide. */
function deferredQuestions(single: ReadonlyMap<string, QuestionRow>, keyDomain: KeyDomainResult): DeferredQuestion[] {
    const keyRowId = single.get('apiKeyDomainMatch')?.id
    if (keyRowId === undefined || !keyDomainUndecided(keyDomain)) return []
    const note = (keyDomain.uncertain ?? []).map((u) => `${u.param} names ${u.brand}, but ${u.reason}`).join('; ')
    return [
        {
            area: 'single-test',
            questionId: keyRowId,
            note: `The key-domain check could not decide (${note}); judge ${keyRowId} from the schema and its docs.`
        }
    ]
}

/** See {@link DeterministicAnswers.build}. */
export function buildAnswers(raw: unknown): DeterministicResult {
    const root = parseArgs(INPUT, raw, ARGS, STYLE)
    if (root.value === null) return emptyResult(root.errors)
    const input = root.value
    const errors: Issue[] = []
    const { rows, grader, now } = checkBuildInput(input, errors)
    if (errors.some((e) => e.severity === SEVERITY.error)) return emptyResult(errors)

    const main = input.main
    const ctx: Context = { rows: new Map(rows.map((r) => [r.id, r])), grader, now, subject: 'the schema' }
    const pretest = (input.pretest ?? null) as PretestResult | null
    const evidence = gatherEvidence(input, main, errors)
    const vetoes = [...keyDomainVeto(ctx, evidence.keyDomain), ...maliciousVeto(ctx, evidence.security)]
    for (const veto of vetoes) errors.push(...validateVetoRecord(veto, '/veto'))
    const blocked = blockedAreas(evidence.validation, pretest)

    const single = rowIndex(rows, 'single-test', SINGLE_TEST_DIMS, errors)
    const env = singleTestEnv(ctx, main, pretest, evidence.keyDomain, rows, single)
    const toolNames = keysOf(own(main, 'tools'))
    const perTool = toolNames.map((name): [string, GradingAnswer[]] => [name, toolAnswers(env, name)])
    const aggregate = schemaAggregateAnswers(ctx, rows, toolNames, evidence, errors)
    const about = aboutAnswers(ctx, rows, main, input.aboutFileExists as boolean | undefined, errors)
    return {
        byArea: {
            'single-test': Object.fromEntries(perTool),
            'tools-aggregate-schema': aggregate,
            'about-namespace': about
        },
        veto: vetoes[0] ?? null,
        vetoes,
        blocked,
        deferred: deferredQuestions(single, evidence.keyDomain),
        errors
    }
}

/** Arguments of {@link DeterministicAnswers.buildNamespace}. */
export interface BuildNamespaceInput {
    /** Every schema `main` of the namespace. */
    readonly schemas: ReadonlyArray<{ readonly main: unknown; readonly schemaId?: string }>
    /** Whether `resources/about/` holds the About file; `undefined` = not checked. */
    readonly aboutFileExists?: boolean
    /** Documented eligible endpoints (the completeness baseline, 02 §3.4); without it domainCoverage is `n/a`. */
    readonly eligibleEndpoints?: number
    /** Omitted endpoints with a recorded eligibility justification. */
    readonly justifiedOmissions?: number
    readonly questions: readonly QuestionRow[]
    readonly now: string
    readonly grader?: GraderIdentity
}

const COUNT = v.optional(
    v.custom<number>(
        (n) => Number.isInteger(n) && (n as number) >= 0,
        says({ expected: 'integer >= 0', actual: 'value' })
    )
)
/** A namespace's schema: read for its `main` alone, whatever the item is (a non-object item has no `main`). */
const NAMESPACE_SCHEMA = v.pipe(
    v.unknown(),
    v.transform((s) => ({ main: own(s, 'main') })),
    v.looseObject({ main: objectArg({ expected: 'object', actual: 'type', missing: false }) })
)
const NAMESPACE_FIELDS = v.looseObject({
    schemas: v.array(NAMESPACE_SCHEMA, says('array of { main }')),
    eligibleEndpoints: COUNT,
    justifiedOmissions: COUNT,
    aboutFileExists: v.optional(v.boolean())
})

/** The namespace fields beyond the common ones: schemas (each with an object `main`), the counts, aboutFileExists. */
function checkNamespaceFields(input: Record<string, unknown>, errors: Issue[]): void {
    errors.push(...parseArgs(NAMESPACE_FIELDS, input, ARGS, STYLE).errors)
}

/** One schema of a checked namespace: its `main` and the id the evidence names it by. */
interface NamespaceSchema {
    readonly main: unknown
    readonly id: string
}

/** The documented-endpoint baseline and the justified omissions, as checked by {@link checkNamespaceFields}. */
interface CoverageBaseline {
    readonly eligibleEndpoints: number | undefined
    readonly justifiedOmissions: number | undefined
}

/** domainCoverage: tools across all schemas (plus justified omissions) against the baseline; `n/a` without one. */
function domainCoverageAnswers(
    ctx: Context,
    rows: readonly QuestionRow[],
    mains: readonly NamespaceSchema[],
    counts: CoverageBaseline,
    errors: Issue[]
): GradingAnswer[] {
    const coverageRow = rowIndex(rows, 'tools-aggregate-namespace', ['domainCoverage'], errors).get('domainCoverage')
    if (coverageRow === undefined) return []
    const toolCount = mains.reduce((n, s) => n + keysOf(own(s.main, 'tools')).length, 0)
    const baseline = counts.eligibleEndpoints
    const justified = counts.justifiedOmissions ?? 0
    if (baseline === undefined) {
        const note = 'no documented-endpoint baseline; the spec defines no fixed tool count'
        const evidence = { tools: toolCount, schemas: mains.length, note }
        return [answer(ctx, coverageRow, NA, evidence, 'blocked-by-precondition')]
    }
    const score = toolCount + justified >= baseline ? 'pass' : 'fail'
    const ratio = baseline === 0 ? 1 : Math.min(1, (toolCount + justified) / baseline)
    return [answer(ctx, coverageRow, score, { tools: toolCount, justified, baseline, ratio })]
}

/** aboutRouteExists for the namespace: exactly one schema declares a conforming About, and its file exists. */
function namespaceAboutAnswers(
    ctx: Context,
    rows: readonly QuestionRow[],
    mains: readonly NamespaceSchema[],
    fileExists: boolean | undefined,
    errors: Issue[]
): GradingAnswer[] {
    const aboutRow = rowIndex(rows, 'about-namespace', ABOUT_DIMS, errors).get('aboutRouteExists')
    if (aboutRow === undefined) return []
    const declaring = mains.filter((s) => aboutDeclaration(s.main).declared)
    const fail = (evidence: Record<string, unknown>): GradingAnswer[] => [answer(ctx, aboutRow, 'fail', evidence)]
    if (declaring.length === 0) return fail({ declaredIn: [], note: 'no schema declares resources.about' })
    if (declaring.length > 1) {
        const note = 'the About must be declared in exactly one schema'
        return fail({ declaredIn: declaring.map((s) => s.id), note })
    }
    const declaredIn = [declaring[0]?.id]
    const decl = aboutDeclaration((declaring[0] as { main: unknown }).main)
    if (!decl.conforming) return fail({ declaredIn, problems: decl.problems })
    if (fileExists === undefined) {
        const evidence = { declaredIn, note: 'the About file was not looked up' }
        return [answer(ctx, aboutRow, NA, evidence, 'blocked-by-precondition')]
    }
    return [answer(ctx, aboutRow, fileExists ? 'pass' : 'fail', { declaredIn, fileExists })]
}

/** See {@link DeterministicAnswers.buildNamespace}. */
export function buildNamespaceAnswers(raw: unknown): {
    byArea: { 'tools-aggregate-namespace': GradingAnswer[]; 'about-namespace': GradingAnswer[] }
    errors: Issue[]
} {
    const empty = (errors: Issue[]): ReturnType<typeof buildNamespaceAnswers> => ({
        byArea: { 'tools-aggregate-namespace': [], 'about-namespace': [] },
        errors
    })
    const root = parseArgs(INPUT, raw, ARGS, STYLE)
    if (root.value === null) return empty(root.errors)
    const input = root.value
    const errors: Issue[] = []
    const rows = checkQuestions(input.questions, errors)
    const { grader, now } = checkCommon(input, errors)
    checkNamespaceFields(input, errors)
    if (errors.some((e) => e.severity === SEVERITY.error)) return empty(errors)

    const ctx: Context = { rows: new Map(rows.map((r) => [r.id, r])), grader, now, subject: 'the namespace' }
    const mains = (input.schemas as Array<{ main: unknown; schemaId?: unknown }>).map(
        (s, i): NamespaceSchema => ({ main: s.main, id: typeof s.schemaId === 'string' ? s.schemaId : `schemas[${i}]` })
    )
    const counts: CoverageBaseline = {
        eligibleEndpoints: input.eligibleEndpoints as number | undefined,
        justifiedOmissions: input.justifiedOmissions as number | undefined
    }
    const coverage = domainCoverageAnswers(ctx, rows, mains, counts, errors)
    const about = namespaceAboutAnswers(ctx, rows, mains, input.aboutFileExists as boolean | undefined, errors)
    return { byArea: { 'tools-aggregate-namespace': coverage, 'about-namespace': about }, errors }
}

const SELECTION_FIELDS = v.looseObject({ aboutFileExists: v.boolean() })

/** See {@link DeterministicAnswers.buildSelection}. */
export function buildSelectionAnswers(input: unknown): {
    byArea: { 'about-selection': GradingAnswer[] }
    errors: Issue[]
} {
    const root = parseArgs(INPUT, input, ARGS, STYLE)
    if (root.value === null) return { byArea: { 'about-selection': [] }, errors: root.errors }
    const errors: Issue[] = []
    const rows = checkQuestions(root.value.questions, errors)
    const { grader, now } = checkCommon(root.value, errors)
    errors.push(...parseArgs(SELECTION_FIELDS, root.value, ARGS, STYLE).errors)
    const exists = root.value.aboutFileExists
    if (errors.some((e) => e.severity === SEVERITY.error)) return { byArea: { 'about-selection': [] }, errors }
    const ctx: Context = { rows: new Map(rows.map((r) => [r.id, r])), grader, now, subject: 'the selection' }
    const row = rowIndex(rows, 'about-selection', ABOUT_DIMS, errors).get('aboutRouteExists')
    const answers =
        row === undefined ? [] : [answer(ctx, row, exists === true ? 'pass' : 'fail', { fileExists: exists })]
    return { byArea: { 'about-selection': answers }, errors }
}

/**
 * The deterministic block of each Area, as pure functions over a loaded schema and the pretest
 * result. Answers carry the caller's catalogue weights, `determinism: 'deterministic'`, a script
 * `graderIdentity`, `timestamp` and an `evidence` object; `n/a` answers carry a closed `naReason`.
 */
class DeterministicAnswersUnguarded {
    private constructor() {}

    /**
     * Builds the deterministic answers of one schema: per tool `Q-single-test-01` docsUrlReachable,
     * `-02` outputSchemaMatch, `-03` apiKeyDomainMatch and `Q-api-availability`; for the schema
     * `Q-tools-aggregate-schema-01` routesUniqueNames, `Q-schema-structure` and `Q-security`; and
     * `Q-about-namespace-01` when this schema declares the About. Questions are matched by
     * `dimension` (extra questions by id); weights come from the rows. Live answers need a pretest
     * that ran — otherwise they are `n/a` with `blocked-by-precondition` (the data is public, a
     * precondition of the check is what is missing). Under an `api-key-domain-mismatch` the live
     * answers of affected tools are `fail`, never `pass`.
     * @param input - see {@link BuildInput}
     * @returns `{ byArea: { 'single-test': { [tool]: answers }, 'tools-aggregate-schema', 'about-namespace' }, veto,
     *   vetoes, blocked, errors }`; DET-001/DET-002 for bad arguments, DET-WARN-001 for a deterministic catalogue row
     *   without an implementation.
     * @example
     * DeterministicAnswers.build({ main, source, pretest, questions, now: '2026-05-29T10:00:00Z' }).byArea[
     *     'single-test'
     * ]
     */
    static build(input: BuildInput): DeterministicResult {
        return buildAnswers(input)
    }

    /**
     * The namespace-wide deterministic answers: `Q-tools-aggregate-namespace-01` domainCoverage
     * (tools across all schemas against a documented-endpoint baseline; the spec fixes no count,
     * so without a baseline it is `n/a`) and `Q-about-namespace-01` (exactly one schema declares a
     * conforming `about`, and the file exists).
     * @param input - see {@link BuildNamespaceInput}
     * @returns `{ byArea: { 'tools-aggregate-namespace', 'about-namespace' }, errors }`; DET-001/DET-002, DET-WARN-001.
     * @example DeterministicAnswers.buildNamespace({ schemas: [{ main }], aboutFileExists: true, questions, now })
     */
    static buildNamespace(input: BuildNamespaceInput): ReturnType<typeof buildNamespaceAnswers> {
        return buildNamespaceAnswers(input)
    }

    /**
     * `Q-about-selection-01`: the selection About exists.
     * @param input - `{ aboutFileExists, questions, now, grader? }`
     * @returns `{ byArea: { 'about-selection' }, errors }`; DET-001/DET-002, DET-WARN-001.
     * @example DeterministicAnswers.buildSelection({ aboutFileExists: true, questions, now })
     */
    static buildSelection(input: {
        aboutFileExists: boolean
        questions: readonly QuestionRow[]
        now: string
        grader?: GraderIdentity
    }): ReturnType<typeof buildSelectionAnswers> {
        return buildSelectionAnswers(input)
    }
}

/**
 * The public DeterministicAnswers: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const DeterministicAnswers = /* @__PURE__ */ guardStatics(DeterministicAnswersUnguarded, 'DeterministicAnswers')

let QUESTION_ROWS: readonly QuestionRow[] | null = null

/** All question rows of the catalogue, in the shape the deterministic answers take (one frozen list). */
export function questionRows(): readonly QuestionRow[] {
    QUESTION_ROWS ??= Object.freeze(
        AREAS.flatMap((area) =>
            Areas.questions({ area }).questions.map((q) =>
                Object.freeze({
                    id: q.id,
                    area: q.area,
                    weight: q.weight,
                    determinism: q.determinism,
                    dimension: q.dimension
                })
            )
        )
    )
    return QUESTION_ROWS
}
