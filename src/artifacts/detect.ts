import { createIssue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { validateGradingEntry, type ValidateEntryInput } from '../grading/validate-entry.js'
import { Areas } from '../areas/areas.js'
import { PromptBuilder } from '../prompts/prompt-builder.js'
import { ScoringProtocol } from '../protocol/scoring-protocol.js'
import { RebuildIndex } from '../rollup/rebuild-index.js'
import { validateRubricDocument } from '../rubrics/index.js'
import { SelectionDefinition } from '../selection/definition.js'
import { DEFAULT_JSON_LIMITS, inspectJson, parseJsonText, resolveLimits, type JsonLimits } from '../json/guard.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'

type Obj = Record<string, unknown>

/** How strictly a grading entry is checked (the other kinds have one mode). */
export interface ArtifactCheckOptions {
    /** Registry intake for grading entries (`validateGradingEntry`'s `strict`); needs `now`. */
    readonly strict?: boolean
    /** The validation time for grading entries: an ISO 8601 string or a Date. */
    readonly now?: string | Date
}

/** One recogniser: a cheap shape test and the validator to run when it matches. */
export interface ArtifactHandler {
    readonly kind: string
    readonly matches: (value: Obj) => boolean
    readonly validate: (value: unknown, options?: ArtifactCheckOptions) => { valid: boolean; errors: Issue[] }
}

/** Issue paths of a validator that reports under `/<field>`, made relative to the document itself. */
function relative(result: { valid: boolean; errors: Issue[] }, field: string): { valid: boolean; errors: Issue[] } {
    const prefix = `/${field}`
    return {
        valid: result.valid,
        errors: result.errors.map((i) =>
            i.path === prefix || i.path.startsWith(`${prefix}/`) ? { ...i, path: i.path.slice(prefix.length) } : i
        )
    }
}

/** Recognisers in priority order; the first match decides the kind. */
export const ARTIFACT_HANDLERS: readonly ArtifactHandler[] = Object.freeze([
    {
        kind: 'grading-entry',
        matches: (v: Obj) => 'gradings' in v && ('area' in v || 'gradingTier' in v || 'aggregateGrade' in v),
        validate: (value: unknown, options?: ArtifactCheckOptions) => {
            // The options as the host gave them: strict without now is GRD-074 at run time.
            const { valid, errors } = validateGradingEntry({
                entry: value,
                ...(options?.strict === true ? { strict: true } : {}),
                ...definedFields({ now: options?.now })
            } as ValidateEntryInput)
            return { valid, errors }
        }
    },
    {
        kind: 'index',
        matches: (v: Obj) => v.indexVersion === 2 || ('lockSnapshot' in v && 'status' in v),
        validate: (value: unknown) => relative(RebuildIndex.validateIndex({ index: value, mode: 'read' }), 'index')
    },
    {
        // Chapter 16 selection.json (⚠ C24); a v4.2.0 primitive dumped as JSON lands here too and is told to adapt.
        kind: 'selection-definition',
        matches: (v: Obj) =>
            ('selectionId' in v && 'members' in v) || ('whenToUse' in v && ('members' in v || 'tools' in v)),
        validate: (value: unknown) => relative(SelectionDefinition.validate({ definition: value }), 'definition')
    },
    {
        kind: 'scores-v1',
        matches: (v: Obj) => 'scoringProtocol' in v && Array.isArray(v.scores) && 'schemaIdSlug' in v,
        validate: (value: unknown) => relative(ScoringProtocol.validateScores({ scores: value }), 'scores')
    },
    {
        // A v1 grade report: the library's buildReport output or an entry of the public registry.json.
        kind: 'report-v1',
        matches: (v: Obj) =>
            v.scoringProtocol === 'v1' && Array.isArray(v.dimensions) && 'grade' in v && 'schemaHash' in v,
        validate: (value: unknown) => {
            const { valid, errors } = ScoringProtocol.validateReport({ report: value })
            return { valid, errors }
        }
    },
    {
        kind: 'prompts-v1',
        matches: (v: Obj) => 'scoringProtocol' in v && Array.isArray(v.prompts) && 'schemaIdSlug' in v,
        validate: (value: unknown) => relative(ScoringProtocol.validatePrompts({ prompts: value }), 'prompts')
    },
    {
        kind: 'prompts-v2',
        matches: (v: Obj) => 'taskId' in v && 'flow' in v && Array.isArray(v.areas),
        validate: (value: unknown) => relative(PromptBuilder.validatePromptsV2({ prompts: value }), 'prompts')
    },
    {
        kind: 'area-output',
        matches: (v: Obj) => (Array.isArray(v.answers) && 'area' in v) || ('blocker' in v && 'reason' in v),
        validate: (value: unknown) => {
            const area = isObject(value) && typeof value.area === 'string' ? value.area : 'single-test'
            const { valid, errors } = Areas.validateOutput({ area, output: value })
            return relative({ valid, errors }, 'output')
        }
    },
    {
        kind: 'rubric-document',
        matches: (v: Obj) => 'rubric_id' in v,
        validate: (value: unknown) => {
            const { result, errors } = validateRubricDocument({ document: value })
            // The dispatcher reports paths under /document; here the document is the whole input.
            const rebased = errors.map((i) => ({
                ...i,
                path: i.path.startsWith('/document') ? i.path.slice('/document'.length) : i.path
            }))
            return { valid: result?.valid === true, errors: rebased }
        }
    }
])

/**
 * Recognises and validates external JSON artefacts (a file a host read from disk or got from a
 * grader), so a host can check any of them through one call.
 */
class ArtifactsUnguarded {
    private constructor() {}

    /**
     * Which artefact a parsed JSON value is, judged by its shape.
     * @param input - `{ value }`
     * @returns `{ kind, errors }`; `kind: 'unknown'` with ART-001 when nothing matches.
     * @example Artifacts.detect({ value: entry }).kind // 'grading-entry'
     */
    static detect(input: { value?: unknown }): { kind: string; errors: Issue[] } {
        const value = input?.value
        if (!isObject(value)) {
            return { kind: 'unknown', errors: [createIssue('ART-001', '', { detail: `a JSON ${typeOfValue(value)}` })] }
        }
        const handler = ARTIFACT_HANDLERS.find((h) => h.matches(value))
        return handler === undefined
            ? { kind: 'unknown', errors: [createIssue('ART-001', '', { detail: 'no known artefact has this shape' })] }
            : { kind: handler.kind, errors: [] }
    }

    /**
     * Parses (when given text) and validates an artefact of the given or detected kind.
     * @param input - `{ json, kind?, limits?, strict?, now? }` — `json` is text or an already parsed value;
     *   `strict` and `now` apply to grading entries (see `validateGradingEntry`)
     * @returns `{ kind, valid, errors }`; INP-* for unreadable text, ART-001 unknown shape, ART-002 unknown kind,
     *   plus the codes of the kind's validator.
     * @example Artifacts.validate({ json: text }).valid
     */
    static validate(input: { json?: unknown; kind?: unknown; limits?: Partial<JsonLimits> } & ArtifactCheckOptions): {
        kind: string
        valid: boolean
        errors: Issue[]
    } {
        const limits = input?.limits === undefined ? DEFAULT_JSON_LIMITS : resolveLimits(input.limits)
        let value: unknown = input?.json
        if (typeof value === 'string') {
            const parsed = parseJsonText(value, limits)
            if (parsed.errors.length > 0) return { kind: 'unknown', valid: false, errors: parsed.errors }
            value = parsed.value
        } else {
            const guard = inspectJson(value, limits)
            if (guard.length > 0) return { kind: 'unknown', valid: false, errors: guard }
        }
        let kind = input?.kind
        if (kind === undefined) {
            const detected = Artifacts.detect({ value })
            if (detected.errors.length > 0) return { kind: 'unknown', valid: false, errors: detected.errors }
            kind = detected.kind
        }
        const handler = ARTIFACT_HANDLERS.find((h) => h.kind === kind)
        if (handler === undefined) {
            return {
                kind: 'unknown',
                valid: false,
                errors: [
                    createIssue('ART-002', '/kind', {
                        value: String(kind),
                        expected: ARTIFACT_HANDLERS.map((h) => h.kind).join(', ')
                    })
                ]
            }
        }
        const result = handler.validate(value, {
            ...(input.strict === true ? { strict: true } : {}),
            ...definedFields({ now: input.now })
        })
        return { kind: handler.kind, valid: result.valid, errors: result.errors }
    }

    /**
     * The artefact kinds this build recognises.
     * @returns `{ kinds }`
     * @example Artifacts.kinds().kinds.includes('grading-entry') // true
     */
    static kinds(): { kinds: string[] } {
        return { kinds: ARTIFACT_HANDLERS.map((h) => h.kind) }
    }
}

/**
 * The public Artifacts: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Artifacts = /* @__PURE__ */ guardStatics(ArtifactsUnguarded, 'Artifacts')
