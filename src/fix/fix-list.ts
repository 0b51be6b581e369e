import { questionsOf } from '../areas/catalogue.js'
import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import { findingCost, gradeEffectOf } from '../errors/grade-effect.js'
import type { Issue, IssueLike } from '../errors/types.js'
import type { GradingEntry } from '../model/types.js'
import type { UnitResult } from '../grade/types.js'
import type { FixItem } from './types.js'
import type { PretestTestRecord } from '../pretest/data-pretest.js'
import { SEVERITY, BLOCKED_REASONS, UNIT_STATUS, isWorkingCountReason } from '../model/constants.js'
import { ENVIRONMENT_CAUSES } from '../rollup/standing.js'
import { explainAnswer } from '../deterministic/explain.js'
import { toolPattern, withTool } from './tool-names.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'
import { parseArgs, says } from '../validation/args.js'

/** The codes of the argument checks: GRA-002 for a name that is not a string, an absent one too. */
const FIX_ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
const NAME = v.string(says({ expected: 'string', actual: 'type', missing: false }))

/** The issues of the name `field` (`schemaId`, `namespace`) of an input that must be an object. */
function nameIssues(input: unknown, field: 'schemaId' | 'namespace'): Issue[] {
    const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[field] : undefined
    return parseArgs(NAME, value, FIX_ARGS, { at: [field] }).errors
}

/** Where a JSON Pointer of `main` sits in the source, when known (`sourceLocations(...).locate`). */
export type Locate = (pointer: string) => { readonly line: number; readonly column: number } | null

/** A tool nobody could test keeps the whole schema from a grade. */
const BLOCKED_TOOL_COST = 4
/** Answers at or above this score are not worth a line. */
const LOW_SCORE = 4

/** The pretest's blocked reasons, as the codes the catalogue explains them under. */
const BLOCKED_CODES: Readonly<Record<string, string>> = {
    [BLOCKED_REASONS.keyGated]: 'DPT-007',
    [BLOCKED_REASONS.keyDomainMismatch]: 'DPT-013',
    [BLOCKED_REASONS.stateChanging]: 'DPT-019',
    [BLOCKED_REASONS.noTests]: 'DPT-015',
    [BLOCKED_REASONS.unbuildableTests]: 'DPT-012',
    [BLOCKED_REASONS.handlersNeedRuntime]: 'DPT-020',
    [BLOCKED_REASONS.untested]: 'DPT-014',
    [BLOCKED_REASONS.invalidSchema]: 'DPT-009',
    [BLOCKED_REASONS.networkNotGranted]: 'DPT-021',
    [BLOCKED_REASONS.missingRecording]: 'DPT-023',
    [BLOCKED_REASONS.sharedListsNotGiven]: 'DPT-024',
    [BLOCKED_REASONS.libraryNotInstalled]: 'DPT-025'
}

/**
 * The codes of the tools this environment could not test (`ENVIRONMENT_BLOCKED_REASONS`: a key not set, no HTTP port,
 * no runtime, no network, a missing recording, no shared lists, a library not installed): notices about where the run
 * was, not about the schema.
 */
export const ENVIRONMENT_CODES: readonly string[] = Object.freeze(
    ENVIRONMENT_CAUSES.map((cause) => BLOCKED_CODES[cause] as string)
)

/**
 * Whether a fix item is a notice of the environment (a tool not tested here for a missing key, …), which
 * `--max-warnings` does not count.
 */
export function isEnvironmentItem(item: Pick<FixItem, 'kind' | 'code' | 'unit'>): boolean {
    return item.kind === 'finding' && item.unit !== undefined && ENVIRONMENT_CODES.includes(item.code)
}

/** Whether a fix item names a stale recording (DPT-022): a test whose request the recordings lack. */
export function isStaleRecordingItem(item: Pick<FixItem, 'kind' | 'code'>): boolean {
    return item.kind === 'finding' && item.code === 'DPT-022'
}

/**
 * Codes of the run itself (prompts, gates, provisional, kept, island files): the catalogue marks them, they are not
 * things to fix in the schema.
 */
const isRunCode = (code: string): boolean => gradeEffectOf(code)?.kind === 'run'

/** A list from the input, or none: the input is read at run time and may be anything. */
const list = <T>(value: readonly T[] | undefined): readonly T[] => (Array.isArray(value) ? value : [])

/** The schema part a unit is about: its tool, the tool set, or the schema as a whole. */
function unitPointer(unit: string): string {
    if (unit.startsWith('single-test/')) return pointer('tools', unit.slice('single-test/'.length))
    if (unit === 'tools-aggregate-schema' || unit === 'tools-aggregate-namespace') return '/tools'
    return ''
}

const toolOfUnit = (unit: string): string | undefined =>
    unit.startsWith('single-test/') ? unit.slice('single-test/'.length) : undefined

/** The tool a pointer of `main` lies under (`/tools/getPrice/method` → `getPrice`), unescaped. */
function toolOfPointer(at: string): string | undefined {
    if (!at.startsWith('/tools/')) return undefined
    const token = at.slice('/tools/'.length).split('/')[0] ?? ''
    return token.length === 0 ? undefined : token.replace(/~1/g, '/').replace(/~0/g, '~')
}

/** Longest `targetField` read as a path; a longer one is not a field name. */
const MAX_TARGET_LENGTH = 500

/**
 * The pointers a hint's `targetField` may mean, most specific first: a JSON Pointer as written
 * (and under the unit's tool), a dotted or bracketed path (`tools.getPrice.description`,
 * `tools[getPrice].parameters[0]`, `main.description`) from `main`, and, for a tool's unit, the
 * same path under that tool (`description` of `single-test/getPrice`).
 */
function hintCandidates(target: string, unit: string): string[] {
    if (target.length === 0 || target.length > MAX_TARGET_LENGTH) return []
    const tool = toolOfUnit(unit)
    const underTool = tool === undefined ? null : pointer('tools', tool)
    if (target.startsWith('/'))
        return underTool === null || target.startsWith('/tools/') ? [target] : [target, underTool + target]
    const parts = target
        .replace(/\[\s*['"]?([^'"\]]*)['"]?\s*\]/g, '.$1')
        .split('.')
        .filter((part) => part.length > 0)
    // Words that are not a path (`the overall tone`) name no field.
    if (parts.length === 0 || parts.some((part) => !/^[\w$-]+$/.test(part))) return []
    const fromMain = parts[0] === 'main' ? parts.slice(1) : parts
    const out = [pointer(...fromMain)]
    if (tool !== undefined && fromMain[0] !== 'tools')
        out.unshift(pointer('tools', tool, ...(fromMain[0] === tool ? fromMain.slice(1) : fromMain)))
    return [...new Set(out)]
}

/** Where a hint goes: the first reading of its target the source has, else its unit's place. */
function hintPlace(
    target: string,
    unit: string,
    resolve: Locate | undefined
): { pointer: string; placed: 'target' | 'unit' } {
    const candidates = hintCandidates(target, unit)
    // Without a source nothing can be checked: the most specific reading stands.
    if (resolve === undefined)
        return candidates[0] !== undefined
            ? { pointer: candidates[0], placed: 'target' }
            : { pointer: unitPointer(unit), placed: 'unit' }
    const found = candidates.find((candidate) => safeLocate(resolve, candidate) !== null)
    return found !== undefined ? { pointer: found, placed: 'target' } : { pointer: unitPointer(unit), placed: 'unit' }
}

function safeLocate(locate: Locate, at: string): { line: number; column: number } | null {
    try {
        return locate(at)
    } catch {
        return null
    }
}

function at(locate: Locate | undefined, where: string): { line: number | null; column: number | null } {
    const found = locate === undefined ? null : safeLocate(locate, where)
    return found === null ? { line: null, column: null } : { line: found.line, column: found.column }
}

/** The input of {@link FixList.build}: what one graded schema said. */
export interface FixListInput {
    readonly schemaId: string
    readonly file?: string | null
    /**
     * The run's issues (`result.errors`): the schema's own findings are kept, the run's are not. Codes read back from a
     * file may be outside the catalogue.
     */
    readonly errors: readonly IssueLike[]
    /** The run's units (`result.grading.units`): blocked tools, and the hints of graded units. */
    readonly units: readonly UnitResult[]
    /**
     * The entries of the units, for the answers that cost points ({@link FixList.entriesOf} pairs a result's entries
     * with their units).
     */
    readonly entries?: ReadonlyArray<{ readonly unit: string; readonly entry: GradingEntry }>
    readonly locate?: Locate
    /**
     * Where a pointer sits only when it resolves all the way (`sourceLocations(...).resolve`): decides whether a hint's
     * `targetField` is in the source.
     */
    readonly resolve?: Locate
    /**
     * The pretest's tests (`result.grading.pretest.tests`): a test whose request the recordings lack is a DPT-022
     * finding at that test.
     */
    readonly tests?: readonly PretestTestRecord[]
    /**
     * The command that records the schema's requests again (`npx flowmcp-grading grade <schema> --live --record <dir>`
     * and the run's options), named in each DPT-022 item.
     */
    readonly recordCommand?: string
}

/**
 * What to fix in a schema, most costly first: tools nobody could test (they keep the schema from a
 * grade), the schema's own findings (errors before warnings), the judge's answers that cost grade
 * points (each with its question and reasoning, at its tool's key), and each improvement hint once as
 * an item of its own at the field it names — each with where in the source it is and the tool it is about.
 */
class FixListUnguarded {
    private constructor() {}

    /**
     * @param input - `{ schemaId, file?, errors, units, entries?, locate?, resolve? }`
     * @returns `{ items, errors }`: the items ordered by cost (ties: errors first, findings before answers before
     *   hints, then by pointer); GRA-002 for input that is not a graded schema
     * @example
     * FixList.build({
     *     schemaId: g.schemaId,
     *     file,
     *     errors: result.errors,
     *     units: g.units,
     *     entries: fixEntriesOf(g.units, result.entries),
     *     locate,
     *     resolve
     * }).items
     */
    static build(input: FixListInput): { items: FixItem[]; errors: Issue[] } {
        const errors = nameIssues(input, 'schemaId')
        if (errors.length > 0) return { items: [], errors }
        const answers = answerItems(input)
        const items = [
            ...blockedItems(input),
            ...staleRecordingItems(input),
            ...findingItems(input),
            ...answers,
            ...hintItems(input, answers)
        ]
        return { items: items.sort(byCost), errors: [] }
    }

    /**
     * What to fix at the namespace level, most costly first, in the items of {@link FixList.build}: the About that is
     * missing or not declared (IDX-014, GRA-022, GRA-023 in words: which file to create, where to declare it), then the
     * namespace units' answers that cost grade points and their hints, each at the file it is fixed in (the namespace
     * description at the schema's `main.description`, the About in its markdown file, the tools across the namespace
     * in its folder). `schemaId` of every item is the namespace.
     * @param input - `{ namespace, units, entries?, errors?, schema?, about?, folder? }`
     * @returns `{ items, errors }`; GRA-002 for input without a namespace name
     * @example
     * FixList.buildNamespace({
     *     namespace: ns.namespace,
     *     units: ns.units,
     *     entries: fixEntriesOf(ns.units, ns.entries),
     *     errors: ns.errors,
     *     schema: { file, locate, resolve },
     *     about: { file: 'providers/openmeteo/resources/openmeteo-about.md' },
     *     folder: 'providers/openmeteo'
     * }).items
     */
    static buildNamespace(input: NamespaceFixListInput): { items: FixItem[]; errors: Issue[] } {
        const errors = nameIssues(input, 'namespace')
        if (errors.length > 0) return { items: [], errors }
        return { items: [...aboutItems(input), ...namespaceUnitItems(input)].sort(byCost), errors: [] }
    }
}

/** Where a namespace-level answer is fixed: a file, and the place in it when its syntax tree is known. */
export interface NamespaceFixPlace {
    readonly file: string | null
    readonly locate?: Locate
    readonly resolve?: Locate
}

/** The input of {@link FixList.buildNamespace}: what one graded namespace said, and where its parts live. */
export interface NamespaceFixListInput {
    readonly namespace: string
    /** The namespace-level units (`GradeNamespaceResult.units`). */
    readonly units: readonly UnitResult[]
    /** Their entries, for the answers that cost points (`fixEntriesOf(units, entries)`, plus kept units read back). */
    readonly entries?: ReadonlyArray<{ readonly unit: string; readonly entry: GradingEntry }>
    /**
     * The namespace run's issues and its schemas' IDX-014: a missing or undeclared About (IDX-014, GRA-022, GRA-023)
     * becomes an item; the rest are the run's.
     */
    readonly errors?: readonly IssueLike[]
    /** The schema whose `main.description` the namespace description is read from, and the About is declared in. */
    readonly schema?: NamespaceFixPlace
    /**
     * The About markdown file: where it is (`exists`), or where to create it
     * (`<folder>/resources/<namespace>-about.md`).
     */
    readonly about?: { readonly file: string | null; readonly exists?: boolean }
    /** The namespace folder (the tools across the namespace, its skills). */
    readonly folder?: string | null
}

/** A unit that cannot be graded at all loses every answer: the whole scale (5 − 1), as a tool nobody could test. */
const UNGRADED_UNIT_COST = BLOCKED_TOOL_COST

/** The About as it stands: declared but missing, present but undeclared, or absent; one item, in words. */
function aboutItems(input: NamespaceFixListInput): FixItem[] {
    const errors = list(input.errors).filter((e) => e !== null && typeof e === 'object')
    const aboutFile = input.about?.file ?? null
    const schema = input.schema ?? { file: null }
    const item = (code: string, message: string, file: string | null, where: string, locate?: Locate): FixItem => ({
        schemaId: input.namespace,
        file,
        kind: 'finding',
        code,
        severity: SEVERITY.warning,
        message,
        pointer: where,
        ...at(locate, where),
        cost: UNGRADED_UNIT_COST,
        unit: 'about-namespace',
        area: 'about-namespace'
    })
    // Declared where the file is missing, or present and not declared: the run's own message says which file and how.
    const specific = errors.find((e) => e.code === 'GRA-023') ?? errors.find((e) => e.code === 'GRA-022')
    if (specific !== undefined)
        return specific.code === 'GRA-023'
            ? [item(specific.code, specific.message, aboutFile, '')]
            : [item(specific.code, specific.message, schema.file, '/resources', schema.locate)]
    // A resumed run reports no IDX-014 again; its About unit, skipped for want of a declaration, says the same.
    const skipped = list(input.units).some(
        (u) => u !== null && typeof u === 'object' && u.unit === 'about-namespace' && u.status === UNIT_STATUS.skipped
    )
    if (!skipped && !errors.some((e) => e.code === 'IDX-014')) return []
    const target = aboutFile ?? `resources/${input.namespace}-about.md`
    if (input.about?.exists === true)
        return [
            item(
                'GRA-022',
                `The About ${target} is not declared by any schema, so about-namespace is not graded: declare it in main.resources as about: { source: 'markdown', origin: 'inline', name: '${target.slice(target.lastIndexOf('/') + 1)}', description: '…' }`,
                schema.file,
                '/resources',
                schema.locate
            )
        ]
    return [
        item(
            'IDX-014',
            `No About: create ${target} (what the API offers, its limits, its use cases) and declare it in main.resources.about of one schema; the About is not graded until then (docs/cli.md, "The About")`,
            aboutFile,
            ''
        )
    ]
}

/** Where a namespace unit's answers are fixed: the description in the schema, the About in its file, else the folder */
function namespacePlace(input: NamespaceFixListInput, unit: string): { place: NamespaceFixPlace; pointer: string } {
    if (unit === 'namespace-description') return { place: input.schema ?? { file: null }, pointer: '/description' }
    if (unit === 'about-namespace') return { place: { file: input.about?.file ?? null }, pointer: '' }
    return { place: { file: input.folder ?? null }, pointer: '' }
}

/** The answers of the namespace units that cost grade points, and their hints, each at the file it is fixed in. */
function namespaceUnitItems(input: NamespaceFixListInput): FixItem[] {
    const out: FixItem[] = []
    for (const unit of list(input.units)) {
        if (unit === null || typeof unit !== 'object' || typeof unit.unit !== 'string') continue
        const { place, pointer: where } = namespacePlace(input, unit.unit)
        const own: FixListInput = {
            schemaId: input.namespace,
            file: place.file,
            errors: [],
            units: [unit],
            entries: list(input.entries).filter((e) => e !== null && typeof e === 'object' && e.unit === unit.unit),
            ...definedFields({ locate: place.locate }),
            // A hint's field is looked up only in the schema it may name; elsewhere it stays at its unit's place.
            resolve: place.resolve ?? (() => null)
        }
        const answers = answerItems(own).map((a) => ({ ...a, pointer: where, ...at(place.locate, where) }))
        const hints = hintItems(own, answers).map((h) =>
            h.placed === 'unit' ? { ...h, pointer: where, ...at(place.locate, where) } : h
        )
        out.push(...answers, ...hints)
    }
    return out
}

const RANK = { error: 0, warning: 1, info: 2 } as const
const KINDS = { finding: 0, answer: 1, hint: 2 } as const
const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The fix list's order: most costly first; ties: errors first, findings before answers before hints, then by file,
 * pointer, code and message. Shared by the schema and the namespace fix lists.
 */
export function byCost(a: FixItem, b: FixItem): number {
    return (
        b.cost - a.cost ||
        RANK[a.severity] - RANK[b.severity] ||
        KINDS[a.kind] - KINDS[b.kind] ||
        order(a.file ?? '', b.file ?? '') ||
        order(a.pointer, b.pointer) ||
        order(a.code, b.code) ||
        order(a.message, b.message)
    )
}

/**
 * The public FixList: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const FixList = /* @__PURE__ */ guardStatics(FixListUnguarded, 'FixList')

/** The tools nobody could test: they keep the schema from a grade. */
function blockedItems(input: FixListInput): FixItem[] {
    const file = input.file ?? null
    return list(input.units).flatMap((unit): FixItem[] => {
        if (unit.area !== 'single-test' || unit.status !== 'blocked') return []
        const reason = unit.reason ?? 'blocked'
        const [key = reason, ...rest] = reason.split(' — ')
        // `key-gated-missing-server-param — not tested: set X_KEY …` reads `Not tested
        // (key-gated-missing-server-param): set X_KEY …`.
        const detail = rest.join(' — ').replace(/^not tested:\s*/i, '')
        const code = BLOCKED_CODES[key] ?? (isWorkingCountReason(key) ? 'DPT-003' : 'GRA-011')
        const where = unitPointer(unit.unit)
        const tool = toolOfUnit(unit.unit)
        // The tool is a field of its own, so the same cause across tools reads the same and collapses.
        return [
            {
                schemaId: input.schemaId,
                file,
                kind: 'finding',
                code,
                severity: SEVERITY.warning,
                message: `Not tested (${key})${detail.length > 0 ? `: ${detail}` : ''}`,
                pointer: where,
                ...at(input.locate, where),
                cost: BLOCKED_TOOL_COST,
                unit: unit.unit,
                area: unit.area,
                ...definedFields({ tool })
            }
        ]
    })
}

/** What the message says to do when the host named no command: the CLI's, in general form. */
const RECORD_COMMAND_GENERAL =
    'npx flowmcp-grading grade <the schema file> --live --record <the recordings folder>, with the options of the run (or a live run through recordingHttpPort)'

/**
 * Each test whose request the recordings lack (a replay's 404, `missingRecording`), at that test:
 * which test, which request (keys masked, as the record keeps it) and the command that records it
 * again. A warning of the repository, not a notice of the environment: the recordings are committed
 * beside the schema and every run replays them the same way, so the fix is a commit. It costs what a
 * blocked tool costs when its tool is blocked (the stale test is why), else what an error costs.
 */
function staleRecordingItems(input: FixListInput): FixItem[] {
    const blocked = new Set(
        list(input.units)
            .filter((u) => u.area === 'single-test' && u.status === 'blocked')
            .map((u) => u.unit)
    )
    const command =
        typeof input.recordCommand === 'string' && input.recordCommand.length > 0 ? input.recordCommand : null
    return list(input.tests).flatMap((test): FixItem[] => {
        if (
            test === null ||
            typeof test !== 'object' ||
            typeof test.tool !== 'string' ||
            !Number.isInteger(test.testIndex)
        )
            return []
        const missing = list(test.requests).filter(
            (r) =>
                r !== null &&
                typeof r === 'object' &&
                r.missingRecording === true &&
                typeof r.method === 'string' &&
                typeof r.url === 'string'
        )
        const first = missing[0]
        if (first === undefined) return []
        const more = missing.length - 1
        const others = more > 0 ? ` (and ${more} more request${more === 1 ? '' : 's'})` : ''
        const request = `${first.method} ${first.url}${others}`
        const where = pointer('tools', test.tool, 'tests', test.testIndex)
        const unit = `single-test/${test.tool}`
        const message = createIssue('DPT-022', where, {
            index: test.testIndex,
            tool: test.tool,
            request,
            command: command ?? RECORD_COMMAND_GENERAL
        }).message
        return [
            {
                schemaId: input.schemaId,
                file: input.file ?? null,
                kind: 'finding',
                code: 'DPT-022',
                severity: SEVERITY.warning,
                message,
                pointer: where,
                ...at(input.locate, where),
                cost: blocked.has(unit) ? BLOCKED_TOOL_COST : findingCost('DPT-022', SEVERITY.warning),
                unit,
                area: 'single-test',
                tool: test.tool,
                recording: { testIndex: test.testIndex, method: first.method, url: first.url, command }
            }
        ]
    })
}

/** The schema's own findings (errors before warnings by cost), each once per code and place. */
function findingItems(input: FixListInput): FixItem[] {
    const seen = new Set<string>()
    const out: FixItem[] = []
    for (const issue of list(input.errors)) {
        // Notes of the schema checks (a convention the runtime accepts) are shown as notes; other notes are the run's.
        if (
            (issue.severity === SEVERITY.info && !issue.code.startsWith('SCH-')) ||
            isRunCode(issue.code) ||
            !issue.path.startsWith('/schema/main')
        )
            continue
        const where = issue.path.slice('/schema/main'.length)
        const key = `${issue.code}|${where}`
        if (seen.has(key)) continue
        seen.add(key)
        const tool = toolOfPointer(where)
        out.push({
            schemaId: input.schemaId,
            file: input.file ?? null,
            kind: 'finding',
            code: issue.code,
            severity: issue.severity,
            message: issue.message,
            pointer: where,
            ...at(input.locate, where),
            cost: findingCost(issue.code, issue.severity),
            ...definedFields({ tool })
        })
    }
    return out
}

/**
 * Why an answer scored what it did: the grader's reasoning, else (a deterministic answer written before it carried one)
 * its evidence in words.
 */
function reasoningOf(
    g: GradingEntry['gradings'][number],
    dimension: string | undefined,
    tool: string | undefined
): string {
    if (typeof g.reasoning === 'string' && g.reasoning.length > 0) return g.reasoning
    if (g.determinism === 'deterministic' || (g.evidence !== undefined && typeof g.evidence === 'object')) {
        return explainAnswer({
            questionId: g.questionId,
            ...definedFields({ dimension }),
            score: g.score,
            ...definedFields({ naReason: g.naReason }),
            evidence: g.evidence,
            subject: tool !== undefined ? `tool ${tool}` : 'the schema'
        })
    }
    return typeof g.evidence === 'string' && g.evidence.length > 0
        ? g.evidence
        : 'The grader gave no reasoning for this answer.'
}

/** The answers that cost grade points, each at its own unit's place (its tool's key, or its area's). */
export function answerItems(input: FixListInput): FixItem[] {
    const out: FixItem[] = []
    for (const { unit, entry } of list(input.entries)) {
        const included = entry.gradings.filter(
            (g) => typeof g.score === 'number' || g.score === 'pass' || g.score === 'fail'
        )
        const totalWeight = included.reduce((n, g) => n + g.weight, 0)
        if (totalWeight <= 0) continue
        const questions = new Map<string, ReturnType<typeof questionsOf>[number]>(
            questionsOf(entry.area).map((q) => [q.id, q])
        )
        const where = unitPointer(unit)
        const tool = toolOfUnit(unit)
        const sum = included.reduce(
            (n, g) => n + (typeof g.score === 'number' ? g.score : g.score === 'pass' ? 5 : 1) * g.weight,
            0
        )
        for (const g of entry.gradings) {
            const row = questions.get(g.questionId)
            if (
                g.score !== 'n/a' ||
                row?.dimension !== 'outputSchemaMatch' ||
                g.naReason !== 'not-applicable-to-tool-type'
            )
                continue
            // No output schema: the check cannot run, and the answer a passing check would add is lost.
            const gain = (sum + 5 * g.weight) / (totalWeight + g.weight) - sum / totalWeight
            out.push({
                schemaId: input.schemaId,
                file: input.file ?? null,
                kind: 'answer',
                code: g.questionId,
                severity: 'info',
                message: `${row.question} — n/a: the tool declares no output.schema, so this check cannot run and agents do not know the shape of its response; add output.schema (a JSON Schema of the response) to earn this answer`,
                pointer: where,
                ...at(input.locate, where),
                cost: Math.max(0, Math.round(gain * 1000) / 1000),
                unit,
                area: entry.area,
                ...definedFields({ tool }),
                score: g.score,
                question: row.question,
                reasoning: 'the tool declares no output.schema'
            })
        }
        for (const g of included) {
            const score = typeof g.score === 'number' ? g.score : g.score === 'pass' ? 5 : 1
            if (score >= LOW_SCORE) continue
            const row = questions.get(g.questionId)
            const question = row?.question ?? g.questionId
            const reasoning = reasoningOf(g, row?.dimension, tool)
            out.push({
                schemaId: input.schemaId,
                file: input.file ?? null,
                kind: 'answer',
                code: g.questionId,
                severity: score <= 2 ? 'warning' : 'info',
                message: `${question} — ${g.score}: ${reasoning}`,
                pointer: where,
                ...at(input.locate, where),
                // The points this answer takes off the unit's mean (5 is the top of the scale).
                cost: Math.round(((5 - score) * g.weight * 1000) / totalWeight) / 1000,
                unit,
                area: entry.area,
                ...definedFields({ tool }),
                score: g.score,
                question,
                reasoning
            })
        }
    }
    return out
}

/**
 * Each improvement hint once, as an item of its own at its target (or at its unit's place, saying
 * so). Its cost is its unit's costliest answer: what following it may win back, so it sorts right
 * after that answer.
 */
export function hintItems(input: FixListInput, answers: readonly FixItem[]): FixItem[] {
    const out: FixItem[] = []
    for (const unit of list(input.units)) {
        const cost = Math.max(0, ...answers.filter((a) => a.unit === unit.unit).map((a) => a.cost))
        const seen = new Set<string>()
        for (const hint of list(unit.improvementHints)) {
            if (
                hint === null ||
                typeof hint !== 'object' ||
                typeof hint.suggestion !== 'string' ||
                typeof hint.targetField !== 'string'
            )
                continue
            const key = `${hint.targetField}\u0000${hint.suggestion}`
            if (seen.has(key)) continue
            seen.add(key)
            const tool = toolOfUnit(unit.unit)
            const place = hintPlace(hint.targetField, unit.unit, input.resolve)
            // Placed at its unit (the field it names has no line in the source): the heading says where; the field
            // it is about is said in words.
            const note = place.placed === 'unit' && hint.targetField !== '' ? ` (about ${hint.targetField})` : ''
            out.push({
                schemaId: input.schemaId,
                file: input.file ?? null,
                kind: 'hint',
                code: `HINT-${unit.area}`,
                severity: SEVERITY.info,
                message: `${hint.suggestion}${note}`,
                pointer: place.pointer,
                ...at(input.locate, place.pointer),
                cost,
                unit: unit.unit,
                area: unit.area,
                ...definedFields({ tool }),
                hint: { targetField: hint.targetField, suggestion: hint.suggestion, priority: hint.priority },
                placed: place.placed
            })
        }
    }
    return out
}

/**
 * Pairs a run's entries with their units: the run writes one entry per unit it graded (not kept)
 * or vetoed, in unit order, so the two lists zip.
 */
export function fixEntriesOf(
    units: readonly UnitResult[],
    entries: readonly GradingEntry[]
): Array<{ unit: string; entry: GradingEntry }> {
    const written = list(units).filter((u) => u.kept !== true && (u.status === 'graded' || u.status === 'rejected'))
    return written.length === entries.length
        ? written.map((u, i) => ({ unit: u.unit, entry: entries[i] as GradingEntry }))
        : entries.map((entry) => ({ unit: entry.area, entry }))
}

/** Where an item is, as an editor opens it: `file:line:col`, else the schema id. */
function whereOf(item: FixItem): string {
    return item.file === null
        ? item.schemaId
        : `${item.file}${item.line !== null ? `:${item.line}${item.column !== null ? `:${item.column}` : ''}` : ''}`
}

/** One line per item, as the CLI prints a failure: `file:line:col CODE message in tool <tool>`, the message whole. */
export function fixLine(item: FixItem): string {
    return `${whereOf(item)} ${item.code} ${withTool(item.message, item.tool)}`
}

/** One line of a grouped fix list: one item, or the same message of several tools said once. */
export interface FixListLine {
    readonly code: string
    readonly severity: FixItem['severity']
    readonly kind: FixItem['kind']
    /** The message whole; where it named one of the tools, that name reads `<tool>`. */
    readonly message: string
    /** The tools it is about, in the list's order (empty for the schema as a whole). */
    readonly tools: readonly string[]
    /** The items behind the line, most costly first. */
    readonly items: readonly FixItem[]
    /** The highest cost of its items: the line's place in the list. */
    readonly cost: number
}

/** A schema's lines under one heading: one tool, several tools sharing their lines, or the schema as a whole. */
export interface FixListGroup {
    /** `tool getPrice`, `tools getA, getB, getC`, or `schema`. */
    readonly heading: string
    readonly tools: readonly string[]
    readonly lines: readonly FixListLine[]
}

/** A schema's fix list as eslint prints a file's problems: grouped, collapsed, counted. */
export interface FixListSchema {
    readonly schemaId: string
    readonly file: string | null
    readonly groups: readonly FixListGroup[]
    readonly counts: FixCounts
}

/** How many items of each severity (`problems` is their sum), as eslint counts errors and warnings. */
export interface FixCounts {
    readonly problems: number
    readonly errors: number
    readonly warnings: number
    readonly infos: number
}

/** Counts items by severity. */
export function countFixItems(items: readonly FixItem[]): FixCounts {
    const errors = items.filter((i) => i.severity === SEVERITY.error).length
    const warnings = items.filter((i) => i.severity === SEVERITY.warning).length
    const infos = items.length - errors - warnings
    return { problems: items.length, errors, warnings, infos }
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** `✖ 12 problems (3 errors, 9 warnings, 2 notes)`, or `✔ no problems`. */
export function countsLine(counts: FixCounts): string {
    if (counts.problems === 0) return '✔ no problems'
    const parts = [
        plural(counts.errors, 'error', 'errors'),
        plural(counts.warnings, 'warning', 'warnings'),
        ...(counts.infos > 0 ? [plural(counts.infos, 'note', 'notes')] : [])
    ]
    return `✖ ${plural(counts.problems, 'problem', 'problems')} (${parts.join(', ')})`
}

/** The message with its own tool's name read as `<tool>`, so the same words across tools compare equal. */
function genericMessage(item: FixItem): string {
    return item.tool === undefined || item.tool.length === 0
        ? item.message
        : item.message.replace(toolPattern(item.tool), '<tool>')
}

/** The shared words of several tools' items with each `<tool>` read as the list of them: `tools getA, getB`. */
function namingTools(message: string, tools: readonly string[]): string {
    const names = tools.join(', ')
    return message.replace(/\b([Tt])ool <tool>/g, (_w, t: string) => `${t}ools ${names}`).replace(/<tool>/g, names)
}

/**
 * The same message across tools said once: items of one schema with the same code, severity and
 * message (their own tool's name aside) become one line listing the tools. Lines keep the items'
 * order (most costly first).
 */
export function collapseFixItems(items: readonly FixItem[]): FixListLine[] {
    const lines = new Map<string, { first: FixItem; message: string; items: FixItem[] }>()
    for (const item of items) {
        const message = genericMessage(item)
        const key = `${item.schemaId}\u0000${item.code}\u0000${item.severity}\u0000${item.kind}\u0000${message}`
        const line = lines.get(key)
        if (line === undefined) lines.set(key, { first: item, message, items: [item] })
        else line.items.push(item)
    }
    return [...lines.values()].map(({ first, message, items: its }) => {
        const tools = [...new Set(its.flatMap((i) => (i.tool !== undefined ? [i.tool] : [])))]
        // One tool (or none): its own words stand; several: the shared words naming every tool.
        return {
            code: first.code,
            severity: first.severity,
            kind: first.kind,
            message: tools.length > 1 ? namingTools(message, tools) : first.message,
            tools,
            items: its,
            cost: Math.max(...its.map((i) => i.cost))
        }
    })
}

/**
 * Fix items as eslint prints problems: per schema (in the order of their first item), the collapsed
 * lines grouped under their tool, the tools that share lines, or the schema; groups and lines most
 * costly first; counts per severity over the items.
 */
export function groupFixItems(items: readonly FixItem[]): FixListSchema[] {
    const bySchema = new Map<string, FixItem[]>()
    for (const item of items) bySchema.set(item.schemaId, [...(bySchema.get(item.schemaId) ?? []), item])
    return [...bySchema.entries()].map(([schemaId, its]) => {
        const groups = new Map<string, { tools: readonly string[]; lines: FixListLine[] }>()
        for (const line of collapseFixItems(its)) {
            const key = line.tools.join('\u0000')
            const group = groups.get(key) ?? { tools: line.tools, lines: [] }
            group.lines.push(line)
            groups.set(key, group)
        }
        const ordered = [...groups.values()]
            .map((g) => ({
                heading:
                    g.tools.length === 0
                        ? 'schema'
                        : g.tools.length === 1
                          ? `tool ${g.tools[0] as string}`
                          : `tools ${g.tools.join(', ')}`,
                tools: g.tools,
                lines: g.lines
            }))
            .sort((a, b) => Math.max(...b.lines.map((l) => l.cost)) - Math.max(...a.lines.map((l) => l.cost)))
        return { schemaId, file: its[0]?.file ?? null, groups: ordered, counts: countFixItems(its) }
    })
}

/** Where a line is: the `line:col` of each of its items (each place once, in order), or `-` when the source gave none. */
export function lineWhere(line: FixListLine): string {
    const places = line.items.flatMap((item) =>
        item.line === null ? [] : [`${item.line}${item.column !== null ? `:${item.column}` : ''}`]
    )
    return places.length === 0 ? '-' : [...new Set(places)].join(',')
}

/** The text of a line as the CLI prints it under its group: `12:13  warning  CODE  message`. */
export function fixListLineText(line: FixListLine): string {
    const severity = line.severity === SEVERITY.info ? 'note' : line.severity
    return `${lineWhere(line).padEnd(7)}  ${severity.padEnd(7)}  ${line.code}  ${line.message}`
}

/**
 * A schema's grouped fix list as text lines (each ending in a newline), eslint-style: a heading
 * with the file and counts, the groups, their lines. With `limit`, at most that many lines are
 * printed (the terminal may shorten; each printed line stays whole) and a last line says how many
 * more there are.
 */
export function fixListText(
    schema: FixListSchema,
    options: { readonly indent?: string; readonly limit?: number; readonly more?: string; readonly grade?: string } = {}
): string[] {
    const indent = options.indent ?? ''
    const named = [
        ...(schema.file !== null ? [schema.schemaId] : []),
        ...(options.grade !== undefined ? [options.grade] : [])
    ]
    const out = [
        `${indent}${schema.file ?? schema.schemaId}${named.length > 0 ? ` (${named.join(', ')})` : ''}: ${countsLine(schema.counts)}\n`
    ]
    const limit = options.limit ?? Number.POSITIVE_INFINITY
    let shown = 0
    let hidden = 0
    for (const group of schema.groups) {
        const room = Math.max(0, limit - shown)
        const lines = group.lines.slice(0, room)
        hidden += group.lines.length - lines.length
        if (lines.length === 0) continue
        out.push(`${indent}  ${group.heading}\n`)
        for (const line of lines) out.push(`${indent}    ${fixListLineText(line)}\n`)
        shown += lines.length
    }
    if (hidden > 0)
        out.push(
            `${indent}  … ${hidden} more line${hidden === 1 ? '' : 's'}${options.more !== undefined ? ` ${options.more}` : ''}\n`
        )
    return out
}
