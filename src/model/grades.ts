// The grades: their order, the bands a mean falls in, and what counts as stable. Every surface (the
// grading, the rollup, check, the report) reads them here, so a band or the threshold changes in one place.

/** Letter grades, best first (gradingSystem/1.0.0). */
export const LETTER_GRADES = Object.freeze(['A', 'B', 'C', 'D', 'F'] as const)
export type LetterGrade = (typeof LETTER_GRADES)[number]
export type AggregateGrade = LetterGrade | 'REJECTED'

/** Rank of a letter grade, higher is better. */
export const GRADE_RANK: Readonly<Record<LetterGrade, number>> = Object.freeze({ F: 0, D: 1, C: 2, B: 3, A: 4 })

/** Every grade a node can carry, best first, `REJECTED` last: a higher index is a worse grade. */
export const AGGREGATE_GRADES: readonly AggregateGrade[] = Object.freeze([...LETTER_GRADES, 'REJECTED'] as const)

/** Rank of a grade a node can carry, higher is better: `REJECTED` 0, `F` 1 … `A` 5; -1 for anything else (no grade). */
export function aggregateRank(grade: unknown): number {
    const at = AGGREGATE_GRADES.indexOf(grade as AggregateGrade)
    return at < 0 ? -1 : AGGREGATE_GRADES.length - 1 - at
}

/** Grade bands of gradingSystem/1.0.0, best first; compared with `>=` on the unrounded mean (⚠ A5). */
export const GRADE_BANDS_V1: ReadonlyArray<{ readonly grade: LetterGrade; readonly min: number }> = Object.freeze([
    Object.freeze({ grade: 'A' as const, min: 4.5 }),
    Object.freeze({ grade: 'B' as const, min: 3.5 }),
    Object.freeze({ grade: 'C' as const, min: 2.5 }),
    Object.freeze({ grade: 'D' as const, min: 1.5 }),
    Object.freeze({ grade: 'F' as const, min: Number.NEGATIVE_INFINITY })
])

/** Band of a mean (`>=` thresholds, unrounded); a mean no band holds (NaN) is `F`. */
export function bandOf(mean: number): { grade: LetterGrade; min: number } {
    const band =
        GRADE_BANDS_V1.find((b) => mean >= b.min) ??
        (GRADE_BANDS_V1[GRADE_BANDS_V1.length - 1] as { grade: LetterGrade; min: number })
    return { grade: band.grade, min: band.min }
}

/**
 * The grade a full grading needs for its node to become `stable` (chapters 06/21: `A`/`B` ⇒ stable,
 * `C`/`D`/`F` ⇒ graded). `B`, not the reference's `A`: provider areas are capped at `B`, so an
 * `A` threshold would make every provider node unpromotable.
 */
export const STABLE_THRESHOLD: LetterGrade = 'B'

/** Whether a grade is at or above {@link STABLE_THRESHOLD} (A or B); `REJECTED`, no grade or anything else is not. */
export function isStableGrade(grade: unknown): boolean {
    return (
        typeof grade === 'string' &&
        Object.hasOwn(GRADE_RANK, grade) &&
        GRADE_RANK[grade as LetterGrade] >= GRADE_RANK[STABLE_THRESHOLD]
    )
}
