// The edit distance of short names, for "did you mean": the optimal string alignment distance (Levenshtein with
// adjacent transpositions, as Damerau wrote it), so a swapped pair of letters is one edit, not two.

/** The edits (insert, delete, substitute a character, or swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
    // Three rows are enough: a transposition looks two rows back.
    let before: number[] = []
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
    for (let i = 1; i <= a.length; i++) {
        const current = [i]
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1
            let best = Math.min(
                (previous[j] as number) + 1,
                (current[j - 1] as number) + 1,
                (previous[j - 1] as number) + cost
            )
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                best = Math.min(best, (before[j - 2] as number) + 1)
            current.push(best)
        }
        before = previous
        previous = current
    }
    return previous[b.length] as number
}
