/**
 * How each answer of an accepted entry is known to be true: recomputed from the source, attested by a trusted key,
 * or only claimed. `valid: true` says an entry is consistent; this says which of its answers anyone checked.
 */
import { isObject } from '../model/object.js'
import type { Issue } from '../errors/types.js'
import type { EntryExpectation } from './binding.js'

type Obj = Record<string, unknown>

/**
 * An answer's standing: `recomputed` (a deterministic answer equal to its recomputation from `expect.source`),
 * `attested` (signed by a trusted key), `unverifiable` (a deterministic answer nobody here can recompute: it needs
 * HTTP evidence, the island, or a source that was not given), `self-declared` (an LLM or human answer no trusted key
 * signed: the grader's word only).
 */
export type AnswerStanding = 'recomputed' | 'attested' | 'unverifiable' | 'self-declared'

/** One answer's standing, with why. */
export interface AnswerProvenance {
    /** Index of the answer in `gradings`. */
    readonly index: number
    readonly questionId: string
    readonly standing: AnswerStanding
    readonly reason: string
}

/** What the intake established beyond consistency (see docs/registry.md). */
export interface EntryProvenance {
    /** The schema hash the library computed from `expect.source`; `null` without a source. */
    readonly schemaHash: string | null
    /** The `kid` (or RFC 7638 thumbprint) of the trusted key whose signature over the entry verified; else `null`. */
    readonly graderKeyId: string | null
    readonly answers: readonly AnswerProvenance[]
}

/** What a re-check against a source found, answer by answer (the full library's `recheck`). */
export interface RecheckOutcome {
    readonly schemaHash: string | null
    readonly issues: Issue[]
    /** By answer index: answers the re-check looked at, each `recomputed` or `unverifiable` with its reason. */
    readonly answers: ReadonlyMap<number, { readonly standing: 'recomputed' | 'unverifiable'; readonly reason: string }>
}

/** What an envelope check found. */
export interface VerifyOutcome {
    readonly issues: Issue[]
    readonly graderKeyId: string | null
}

/**
 * The parts of intake that need more than the validate-only bundle: reading a schema module (a JavaScript parser,
 * the public-suffix list) and Ed25519. The root entry point passes them; `flowmcp-grading/entry` does not.
 */
export interface IntakeExtensions {
    readonly recheck: (entry: Obj, expect: EntryExpectation) => RecheckOutcome
    readonly verify: (entry: Obj, envelope: unknown, trustedKeys: unknown) => VerifyOutcome
}

/** Each answer's standing from the re-check and the signature, in answer order. */
export function provenanceOf(entry: Obj, recheck: RecheckOutcome | null, graderKeyId: string | null): EntryProvenance {
    const answers: AnswerProvenance[] = []
    const gradings = Array.isArray(entry.gradings) ? (entry.gradings as unknown[]) : []
    gradings.forEach((g, index) => {
        if (!isObject(g)) return
        const questionId = typeof g.questionId === 'string' ? g.questionId : ''
        const looked = recheck?.answers.get(index)
        const kind = isObject(g.graderIdentity) ? String(g.graderIdentity.kind) : 'unknown'
        let standing: AnswerStanding
        let reason: string
        if (looked?.standing === 'recomputed') ({ standing, reason } = looked)
        else if (graderKeyId !== null) {
            standing = 'attested'
            reason = `signed by trusted key ${graderKeyId}${looked !== undefined ? `; ${looked.reason}` : ''}`
        } else if (looked !== undefined) ({ standing, reason } = looked)
        else if (g.determinism === 'deterministic') {
            standing = 'unverifiable'
            reason =
                recheck === null
                    ? 'no expect.source to recompute it from'
                    : 'the library does not compute this answer from a source'
        } else {
            standing = 'self-declared'
            reason = `a ${kind} answer that no trusted key signed`
        }
        answers.push({ index, questionId, standing, reason })
    })
    return { schemaHash: recheck?.schemaHash ?? null, graderKeyId, answers }
}
