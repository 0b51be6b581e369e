// Grades the bundled example grading entries and prints one row per entry.
import { readdirSync, readFileSync } from 'node:fs'
import { ErrorCodes, Grading, getVersion } from '../dist/index.js'

const dir = new URL('./entries/', import.meta.url)
const rows = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
        const read = Grading.readEntry({ json: readFileSync(new URL(file, dir), 'utf8') })
        const problems = read.errors.filter((e) => e.severity === 'error')
        if (read.entry === null) {
            return { file, area: '-', grade: 'invalid', rawGrade: '-', mean: '-', note: ErrorCodes.format({ issue: problems[0] }).text }
        }
        const result = Grading.computeAggregateGrade({ entry: read.entry })
        return {
            file,
            area: read.entry.area,
            grade: result.aggregateGrade ?? 'no grade',
            rawGrade: result.rawGrade ?? '-',
            mean: result.normalizedScore === null ? '-' : result.normalizedScore.toFixed(3),
            note: result.trace.map((s) => s.step === 'trim' ? `trim ${s.from}→${s.to}` : s.step === 'veto' ? `veto: ${s.triggeredBy}` : null).filter(Boolean).join(', ')
        }
    })

const v = getVersion()
process.stdout.write(`flowmcp-grading ${v.packageVersion} · ${v.gradingSpec} · ${v.scoringSystem} · ${v.gradingSystem}\n\n`)
console.table(rows)
