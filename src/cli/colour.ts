// Colours for the text reports, as eslint, vitest and chalk decide them: on when standard output is a terminal, off
// under NO_COLOR (any non-empty value, no-color.org) or when piped, forced by FORCE_COLOR (any value but `0` or
// `false`; `FORCE_COLOR=0` turns them off). Painting is the last step over finished text, so what the reports say is
// the same with and without colour, and a test of the words never sees an escape.

type Env = Readonly<Record<string, string | undefined>>

/** Whether to colour: FORCE_COLOR first, then NO_COLOR, then whether the output is a terminal. */
export function colourEnabled(env: Env, isTTY: boolean): boolean {
    const force = env.FORCE_COLOR
    if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false'
    if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
    return isTTY
}

const sgr =
    (open: number, close: number) =>
    (text: string): string =>
        `\u001b[${open}m${text}\u001b[${close}m`
const red = sgr(31, 39)
const yellow = sgr(33, 39)
const green = sgr(32, 39)
const dim = sgr(2, 22)
const bold = sgr(1, 22)

// A fix line's severity (`12:9     warning  CODE`), the eslint-style count line, the grade cells and the verdicts.
const SEVERITY_WORD = /^(\s+[\d:,-]+\s+)(error|warning|note)(\s)/gm
const COUNTS = /^([✖✔] .*)$/gm
const GRADE_CELL = /(?<=\s\s)(REJECTED|[A-F] \d\.\d\d(?: \(raw [A-F]\))?)(?=\s\s)/g
const VERDICT = /(?<=\s)(FAILS|UNVERIFIED)(?=\s|$)/gm

/** The text with its severities, counts, grades and verdicts coloured; unchanged when `on` is false. */
export function paint(text: string, on: boolean): string {
    if (!on) return text
    return text
        .replace(SEVERITY_WORD, (_w, head: string, word: string, gap: string) => {
            const coloured = word === 'error' ? red(word) : word === 'warning' ? yellow(word) : dim(word)
            return `${head}${coloured}${gap}`
        })
        .replace(COUNTS, (line: string) => (line.startsWith('✖') ? bold(red(line)) : green(line)))
        .replace(GRADE_CELL, (cell: string) =>
            cell === 'REJECTED' ? red(cell) : /^[AB]/.test(cell) ? green(cell) : yellow(cell)
        )
        .replace(VERDICT, (word: string) => bold(red(word)))
}
