// A schema's grade with the score it comes from, in the one form every surface prints (the CLI tables, the check
// summary, the HTML report), and the note on the autonomous cap said once beside them.
import type { GradeBasis } from '../rollup/standing.js'

/**
 * `B 4.62 (raw A)`: the grade, the score of the unit it comes from (its `basis`, read from the index node by
 * `basisOfSchemaNode`) and, where the tier trim changed the band, the raw band. The letter alone without a basis; `-`
 * without a grade.
 */
export function gradeScoreText(standing: {
    readonly grade: string | null
    readonly basis?: GradeBasis | null | undefined
}): string {
    const { grade } = standing
    if (grade === null) return '-'
    const basis = standing.basis ?? null
    if (basis === null || typeof basis !== 'object' || typeof basis.score !== 'number' || !Number.isFinite(basis.score))
        return grade
    const raw = isLetter(basis.rawGrade) && basis.rawGrade !== grade ? ` (raw ${basis.rawGrade})` : ''
    return `${grade} ${basis.score.toFixed(2)}${raw}`
}

/** Said once under a table with a graded schema: why B is the ceiling, and where A is reached. */
export const CAP_NOTE =
    'A single schema is graded autonomously: its grade stops at B (the score beside it still moves, and "raw" shows the band before the cap); A is reached only in a selection, graded by a group (gradeSelection, docs/guide.md "Grading a selection").'

/** Whether a grade is a letter a score stands behind (the cap note is said when one is shown). */
export const isLetter = (grade: string | null | undefined): boolean =>
    grade === 'A' || grade === 'B' || grade === 'C' || grade === 'D' || grade === 'F'
