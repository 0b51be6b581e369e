import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Areas, PromptBuilder, ScoringProtocol, validateGradingEntry, type Issue } from '../../src/index.js'
import { parseJsonText, resolveLimits } from '../../src/json/guard.js'
import { standardContext, codeAnswers } from './helpers.js'

const DIR = new URL('../fixtures/harness/', import.meta.url)
interface Fixture {
    file: string
    kind: 'area-output' | 'prompts-v1' | 'scores-v1' | 'transcript' | 'scores-v2'
    area?: string
    prompts?: string
    expect: {
        valid?: boolean
        kind?: 'envelope' | 'blocker'
        codes: string[]
        warnings?: string[]
        text?: boolean
        limits?: Record<string, number>
        entry?: { valid?: boolean; blocker?: boolean; grade?: string; normalizedScore?: number; codes?: string[] }
        grade?: string
        score?: number
        complete?: boolean
        accepted?: boolean
        legacy?: boolean
        taskComplete?: boolean
        missingAreas?: string[]
    }
}
const index = JSON.parse(readFileSync(new URL('index.json', DIR), 'utf8')) as {
    fixtures: Array<Fixture & { text?: boolean; limits?: Record<string, number> }>
}
const read = (file: string): string => readFileSync(new URL(file, DIR), 'utf8')
const errorCodes = (issues: readonly Issue[]): string[] =>
    [...new Set(issues.filter((i) => i.severity === 'error').map((i) => i.code))].sort()
const warningCodes = (issues: readonly Issue[]): string[] =>
    [...new Set(issues.filter((i) => i.severity === 'warning').map((i) => i.code))].sort()

function expectCodedWithPaths(issues: readonly Issue[]): void {
    for (const issue of issues) {
        expect(issue.code).toMatch(/^[A-Z]{2,5}(-WARN|-INFO)?-\d{3}$/)
        expect(issue.path === '' || issue.path.startsWith('/')).toBe(true)
    }
}

describe('harness reply fixtures (test/fixtures/harness/index.json)', () => {
    it('holds at least 40 fixtures, each file present and listed once', () => {
        expect(index.fixtures.length).toBeGreaterThanOrEqual(40)
        expect(new Set(index.fixtures.map((f) => f.file)).size).toBe(index.fixtures.length)
        for (const f of index.fixtures) expect(read(f.file).length).toBeGreaterThan(0)
    })

    it.each(index.fixtures.map((f) => [f.file, f] as const))('%s has its expected outcome', (_file, fixture) => {
        const text = read(fixture.file)
        const exp = fixture.expect
        const limits = (fixture as { limits?: Record<string, number> }).limits ?? exp.limits
        switch (fixture.kind) {
            case 'area-output': {
                const parsed =
                    (fixture as { text?: boolean }).text === true || exp.text === true
                        ? parseJsonText(text, resolveLimits(limits))
                        : { value: JSON.parse(text) as unknown, errors: [] }
                if (parsed.errors.length > 0) {
                    expect(errorCodes(parsed.errors)).toEqual([...exp.codes].sort())
                    expect(exp.valid).toBe(false)
                    return
                }
                const result = Areas.validateOutput({
                    area: fixture.area,
                    output: parsed.value,
                    ...(limits !== undefined ? { limits } : {})
                })
                expectCodedWithPaths(result.errors)
                expect(errorCodes(result.errors)).toEqual([...exp.codes].sort())
                expect(result.valid).toBe(exp.valid)
                if (exp.kind !== undefined) expect(result.kind).toBe(exp.kind)
                if (exp.entry !== undefined) {
                    const area = fixture.area as string
                    const converted = Areas.toGradingEntry({
                        area,
                        output: parsed.value,
                        deterministic: codeAnswers(area),
                        context: standardContext(area, parsed.value)
                    })
                    expectCodedWithPaths(converted.errors)
                    if (exp.entry.blocker === true) {
                        expect(converted.blocker).not.toBeNull()
                        expect(converted.entry).toBeNull()
                        expect(converted.errors).toEqual([])
                        return
                    }
                    if (exp.entry.valid === false) {
                        expect(converted.entry).toBeNull()
                        expect(errorCodes(converted.errors)).toEqual([...(exp.entry.codes ?? [])].sort())
                        return
                    }
                    expect(errorCodes(converted.errors)).toEqual([])
                    expect(converted.entry).not.toBeNull()
                    expect(validateGradingEntry({ entry: converted.entry }).valid).toBe(true)
                    if (exp.entry.grade !== undefined) expect(converted.entry?.aggregateGrade).toBe(exp.entry.grade)
                    if (exp.entry.normalizedScore !== undefined)
                        expect(converted.aggregate?.normalizedScore).toBeCloseTo(exp.entry.normalizedScore, 10)
                }
                return
            }
            case 'prompts-v1': {
                const result = ScoringProtocol.validatePrompts({ text })
                expect(errorCodes(result.errors)).toEqual(exp.codes)
                expect(result.valid).toBe(exp.valid)
                return
            }
            case 'scores-v1': {
                const prompts = JSON.parse(read(fixture.prompts as string)) as unknown
                const result = ScoringProtocol.validateScores({ text, prompts })
                expectCodedWithPaths(result.errors)
                expect(errorCodes(result.errors)).toEqual([...exp.codes].sort())
                expect(result.valid).toBe(exp.valid)
                if (exp.grade !== undefined) {
                    const report = ScoringProtocol.buildReport({
                        prompts: prompts as never,
                        scores: result.scores,
                        schemaSource: 'export const main = {}\n',
                        validation: { passed: true, errors: [] },
                        now: '2026-05-31T11:06:00Z'
                    })
                    expect(report.errors).toEqual([])
                    expect(report.report?.grade).toBe(exp.grade)
                    expect(report.report?.score).toBeCloseTo(exp.score as number, 10)
                }
                return
            }
            case 'transcript': {
                const audit = PromptBuilder.auditTranscript({ text })
                expectCodedWithPaths(audit.errors)
                expect(errorCodes(audit.errors)).toEqual([...exp.codes].sort())
                expect(warningCodes(audit.errors)).toEqual([...(exp.warnings ?? [])].sort())
                expect(audit.complete).toBe(exp.complete)
                return
            }
            case 'scores-v2': {
                const emit = PromptBuilder.emitAreaPrompts(JSON.parse(read('emit-input.json')) as never)
                const result = PromptBuilder.verifyScoresPayload({
                    prompts: emit.prompts,
                    state: emit.state,
                    scores: text
                })
                expectCodedWithPaths(result.errors)
                expect(errorCodes(result.errors)).toEqual([...exp.codes].sort())
                expect(result.accepted).toBe(exp.accepted)
                if (exp.legacy !== undefined) expect(result.legacy).toBe(exp.legacy)
                if (exp.taskComplete !== undefined) expect(result.taskComplete).toBe(exp.taskComplete)
                if (exp.missingAreas !== undefined) expect(result.missingAreas).toEqual(exp.missingAreas)
                return
            }
        }
    })
})
