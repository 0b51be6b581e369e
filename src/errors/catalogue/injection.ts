import { defineCodes } from '../define.js'

/**
 * Text aimed at the grader rather than the reader (docs/judges.md, "What the judge is shown, and what
 * it cannot be told"): warnings only. The judge is shown graded text fenced and escaped whatever the
 * scan finds; a finding tells the host, and the judge, where to look.
 */
export const INJECTION_CODES = defineCodes({
    'INJ-001': [
        'warning',
        'Text in {where} reads as an instruction to the grader ({rule}): "{excerpt}"',
        'library: prompt-injection defence; the judge treats graded text as data'
    ],
    'INJ-002': [
        'warning',
        'Invisible characters in {where}, shown to the judge as ⟦U+…⟧ escapes: {detail}',
        'library: prompt-injection defence; hidden text never reaches the judge raw'
    ],
    'INJ-003': [
        'warning',
        'A line in {where} imitates the frame of a judge request ({rule}): "{excerpt}"',
        'library: prompt-injection defence; a data block ends only at its own boundary'
    ],
    'INJ-004': [
        'warning',
        'More than {limit} possible injection findings; the rest are not listed',
        'library: bounded evidence'
    ],
    'INJ-005': [
        'warning',
        '{where} is longer than {limit} characters: only its start was scanned for text aimed at the grader (the judge is shown all of it, fenced and escaped)',
        'library: input size limits'
    ],
    'INJ-006': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: InjectionScan input'
    ]
})
