import { isRecord } from '../schema/shape.js'

/** Each deterministic check by the dimension it answers (the extra questions by theirs). */
const CHECK_NAMES: Readonly<Record<string, string>> = {
    docsUrlReachable: 'The docs-URL check',
    outputSchemaMatch: 'The output-schema check',
    apiKeyDomainMatch: 'The key-domain check',
    'api-availability': 'The data pretest',
    routesUniqueNames: 'The unique-tool-name check',
    'schema-structure': 'The structural validation',
    security: 'The security scan',
    aboutRouteExists: 'The About check',
    domainCoverage: 'The endpoint-coverage check'
}

/** Most nesting rendered in words; deeper values are written as JSON (whole, never cut). */
const MAX_EVIDENCE_DEPTH = 2

/** One evidence value in words: lists joined, objects as `key value` pairs, nothing left out. */
function evidenceValue(value: unknown, depth: number): string {
    if (value === null || value === undefined) return 'none'
    if (typeof value === 'string') return value
    if (typeof value !== 'object') return String(value)
    if (depth >= MAX_EVIDENCE_DEPTH) return JSON.stringify(value) ?? 'none'
    if (Array.isArray(value))
        return value.length === 0
            ? 'none'
            : value.map((v) => evidenceValue(v, depth + 1)).join(depth === 0 ? ', ' : ' / ')
    const parts = Object.entries(value).map(([k, v]) => `${k} ${evidenceValue(v, depth + 1)}`)
    return parts.length === 0 ? 'none' : `(${parts.join(', ')})`
}

/**
 * A deterministic answer's evidence as its reasoning: which check gave the answer, on what, and the
 * facts it rested on (`The output-schema check failed for tool getPrice: working 2, matched false.`),
 * so a maintainer reading a fix list sees why without opening the grading entry.
 * @param input - the answer's `questionId`, its catalogue `dimension` (else the id names the check), `score`,
 *   `naReason`, `evidence`, and the `subject` (`tool getPrice`)
 * @returns one sentence, the whole evidence in it
 * @example
 * explainAnswer({
 *     questionId: 'Q-single-test-01',
 *     dimension: 'docsUrlReachable',
 *     score: 'fail',
 *     evidence: { docs: 0, note: 'main.docs lists no URL' },
 *     subject: 'tool getPrice'
 * })
 */
export function explainAnswer(input: {
    readonly questionId: string
    readonly dimension?: string
    readonly score: unknown
    readonly naReason?: string
    readonly evidence?: unknown
    readonly subject?: string
}): string {
    const check =
        CHECK_NAMES[input.dimension ?? ''] ??
        CHECK_NAMES[input.questionId.replace(/^Q-/, '')] ??
        `The check of ${input.questionId}`
    const score = input.score
    const verdict =
        score === 'pass'
            ? 'passed'
            : score === 'fail'
              ? 'failed'
              : score === 'n/a'
                ? `gave no answer (n/a, ${input.naReason ?? 'no reason recorded'})`
                : typeof score === 'number'
                  ? `gave ${score} of 5`
                  : `answered ${String(score)}`
    const evidence = input.evidence
    let facts: string
    if (typeof evidence === 'string') facts = evidence
    else if (isRecord(evidence)) {
        // The note leads: it is the sentence the check wrote; the figures follow.
        const note = typeof evidence.note === 'string' ? [evidence.note] : []
        const rest = Object.entries(evidence)
            .filter(([k]) => k !== 'note')
            .map(([k, v]) => `${k} ${evidenceValue(v, 0)}`)
        facts = [...note, ...rest].join('; ')
    } else facts = 'no evidence recorded'
    return `${check} ${verdict}${input.subject !== undefined && input.subject.length > 0 ? ` for ${input.subject}` : ''}: ${facts.length > 0 ? facts : 'no evidence recorded'}.`
}
