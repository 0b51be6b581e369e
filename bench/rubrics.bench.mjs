// Evaluations per second of the two rubric systems, beside a trivial weighted sum over the same
// seven numbers so the figures can be read as ratios on any machine.
// Run: npm run build && node bench/rubrics.bench.mjs
import { Bench } from 'tinybench'
import { JudgeRubric, WorkflowRubric } from '../dist/rubrics.js'

const scores = {
    correctness: 9,
    completeness: 8,
    adherence: 9,
    actionability: 8,
    efficiency: 7,
    safety: 10,
    consistency: 9
}
const weights = [0.25, 0.2, 0.15, 0.15, 0.1, 0.1, 0.05]
const values = Object.values(scores)
const judgeInput = {
    scores,
    redFlags: [{ id: 'no-tests', explanation: 'No tests were added' }],
    bonuses: [{ id: 'migration-guide', explanation: 'Ships a migration guide' }]
}
const judgeWithHistory = {
    ...judgeInput,
    history: Array.from({ length: 10 }, (_, i) => ({ ...scores, correctness: 7 + (i % 3) }))
}
const workflowInput = {
    profile: 'swe',
    hardGates: {
        patch_applies_cleanly: true,
        tests_fail_to_pass_all_green: true,
        tests_pass_to_pass_threshold_met: true,
        no_security_policy_violations: true
    },
    criteria: [
        {
            name: 'objective_tests',
            rawScore: { passed: 19, total: 20 },
            formulaId: 'swe-pass-to-pass',
            weight: 0.6,
            category: 'correctness'
        },
        { name: 'judge_quality', rawScore: 4, formulaId: 'likert-1-5', weight: 0.25 },
        { name: 'patch_quality', rawScore: 0.8, formulaId: 'clamp-0-1', weight: 0.1 },
        { name: 'efficiency', rawScore: 12, formulaId: 'lower-is-better', params: { good: 8, bad: 30 }, weight: 0.05 }
    ]
}
const runs = Array.from({ length: 50 }, (_, i) => ({
    ...workflowInput,
    criteria: workflowInput.criteria.map((c, j) => (j === 2 ? { ...c, rawScore: (i % 10) / 10 } : c))
}))

// Sanity: the benchmarked calls succeed.
for (const result of [
    JudgeRubric.evaluate(judgeInput),
    JudgeRubric.evaluate(judgeWithHistory),
    WorkflowRubric.evaluate(workflowInput),
    WorkflowRubric.report({ runs })
]) {
    if (result.errors.length > 0) throw new Error(`benchmark input is invalid: ${JSON.stringify(result.errors)}`)
}

let sink = 0
const bench = new Bench({ time: 1000, warmupTime: 200 })
bench
    .add('baseline: weighted sum of 7 numbers', () => {
        let total = 0
        for (let i = 0; i < 7; i += 1) total += values[i] * weights[i]
        sink += total
    })
    .add('JudgeRubric.evaluate (1 red flag, 1 bonus)', () => {
        sink += JudgeRubric.evaluate(judgeInput).finalScore
    })
    .add('JudgeRubric.evaluate (+10 history points)', () => {
        sink += JudgeRubric.evaluate(judgeWithHistory).finalScore
    })
    .add('WorkflowRubric.evaluate (SWE profile, 4 criteria)', () => {
        sink += WorkflowRubric.evaluate(workflowInput).weightedScore
    })
    .add('WorkflowRubric.report (50 runs, 2000 resamples)', () => {
        sink += WorkflowRubric.report({ runs }).report.weightedScore.mean
    })

await bench.run()

const baseline = bench.tasks[0].result.throughput.mean
const rows = bench.tasks.map((task) => {
    const ops = task.result.throughput.mean
    return {
        task: task.name,
        'ops/s': Math.round(ops).toLocaleString('en-US'),
        'µs/op': ((1000 / ops) * 1000).toFixed(2),
        'vs baseline': `1/${Math.round(baseline / ops).toLocaleString('en-US')}`,
        '±%': task.result.throughput.rme.toFixed(1)
    }
})
console.table(rows)
console.log(`node ${process.version}, ${process.platform}/${process.arch}; sink ${sink > 0 ? 'ok' : 'empty'}`)
