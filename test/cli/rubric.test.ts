import { describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

const fixture = (name: string): string => new URL(`../fixtures/rubrics/${name}`, import.meta.url).pathname

describe('flowmcp-grading rubric', () => {
    it('evaluates a judge rubric input and prints the report', async () => {
        const io = memoryIo()
        expect(await run(['rubric', fixture('judge-input.json')], io)).toBe(0)
        expect(io.out()).toMatch(/^system: judgeSystem\/1\.0\.0\ngrade: /)
        expect(io.out()).toContain('Composite score (before adjustments)')
    })

    it('evaluates a workflow rubric input, as JSON with --json', async () => {
        const io = memoryIo()
        expect(await run(['rubric', '--json', fixture('workflow-input.json')], io)).toBe(0)
        expect(JSON.parse(io.out())).toMatchObject({ system: 'workflowSystem/1.0.0', errors: [] })
    })

    it('exits 1 with coded issues for a bad input', async () => {
        const io = memoryIo({ 'in.json': JSON.stringify({ system: 'judgeSystem/9.9.9', scores: {} }) })
        expect(await run(['rubric', 'in.json'], io)).toBe(1)
        expect(io.out()).toContain('RUB-001 at /input/system')
    })

    it('exits 2 without exactly one readable file', async () => {
        expect(await run(['rubric'], memoryIo())).toBe(2)
        expect(await run(['rubric', '/nonexistent.json'], memoryIo())).toBe(2)
    })
})

describe('flowmcp-grading validate (rubric documents)', () => {
    it('validates rubric documents by their system', async () => {
        const io = memoryIo()
        expect(
            await run(['validate', fixture('judge-rubric.valid.json'), fixture('workflow-rubric.valid.json')], io)
        ).toBe(0)
        expect(io.out()).toContain('rubric-document')
        const bad = memoryIo()
        expect(await run(['validate', fixture('workflow-rubric.invalid.json')], bad)).toBe(1)
        expect(bad.out()).toMatch(/RUB-001 at \/system/)
        const wfl = memoryIo({
            'w.json': JSON.stringify({ system: 'workflowSystem/1.0.0', rubric_id: 'x', version: '1', criteria: [] })
        })
        expect(await run(['validate', 'w.json'], wfl)).toBe(1)
        expect(wfl.out()).toMatch(/WFL-\d{3} at \//)
    })
})
