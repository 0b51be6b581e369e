import type { JudgeScores } from '../../src/rubrics.js'

/** All seven judge dimensions at the same score: the composite then equals that score exactly. */
export function uniform(x: number): JudgeScores {
    return { correctness: x, completeness: x, adherence: x, actionability: x, efficiency: x, safety: x, consistency: x }
}

/** Judge scores in formula order: correctness, completeness, adherence, actionability, efficiency, safety, consistency. */
export function dims(
    c: number,
    comp: number,
    adh: number,
    act: number,
    eff: number,
    saf: number,
    con: number
): JudgeScores {
    return {
        correctness: c,
        completeness: comp,
        adherence: adh,
        actionability: act,
        efficiency: eff,
        safety: saf,
        consistency: con
    }
}

/** `n` distinct red flags. */
export function flags(n: number): Array<{ id: string; explanation: string }> {
    return Array.from({ length: n }, (_, i) => ({ id: `flag-${i + 1}`, explanation: `Red flag number ${i + 1}` }))
}

/** `n` distinct bonuses. */
export function bonuses(n: number): Array<{ id: string }> {
    return Array.from({ length: n }, (_, i) => ({ id: `bonus-${i + 1}` }))
}

/** Codes and paths of issues, for compact assertions. */
export function codes(issues: ReadonlyArray<{ code: string; path: string }>): Array<[string, string]> {
    return issues.map((i) => [i.code, i.path])
}
