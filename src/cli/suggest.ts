// "Did you mean": the closest of a list of names to one the user typed, by edit distance (model/edit-distance.ts, the
// one the config's rule codes use too), so `--isalnd` is one step from `--island`; the bounds are commander's.
import { editDistance } from '../model/edit-distance.js'

/** The most edits a suggestion may be away, and the least share of the longer name it must keep. */
const MAX_DISTANCE = 3
const MIN_SIMILARITY = 0.4

/**
 * The candidate closest to `typed`, or null when none is close enough (at most 3 edits, and more than 40 % of the
 * longer name unchanged). Ties go to the earlier candidate, so a caller lists the likelier names first.
 */
export function closest(typed: string, candidates: readonly string[]): string | null {
    let best: string | null = null
    let bestDistance = Number.POSITIVE_INFINITY
    for (const candidate of candidates) {
        const distance = editDistance(typed, candidate)
        const similarity = 1 - distance / Math.max(typed.length, candidate.length, 1)
        if (distance > MAX_DISTANCE || similarity <= MIN_SIMILARITY || distance >= bestDistance) continue
        best = candidate
        bestDistance = distance
    }
    return best
}
