// Throughput of the Scoring Protocol v1 consumers, as ratios to a baseline measured in the same run.
// Run `npm run build` first: this imports the built package, the way a consumer would.
//   node bench/protocol.bench.mjs
import { Bench } from 'tinybench'
import { Areas, ScoringProtocol } from '../dist/index.js'

const schema = {
    namespace: 'coingecko-com',
    name: 'MarketChart',
    description: 'Historical market data (price, market cap, volume) of one coin.',
    version: '4.2.0',
    root: 'https://api.coingecko.com/api/v3',
    tools: {
        getMarketChart: {
            method: 'GET',
            path: '/coins/{{id}}/market_chart',
            description: 'Returns price, market cap and volume series for one coin.',
            parameters: [
                {
                    position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' },
                    z: { primitive: 'string()', options: [] },
                    description: 'CoinGecko coin id'
                }
            ],
            tests: [{ _description: 'bitcoin', id: 'bitcoin' }]
        }
    }
}
const schemaSource = `export const main = ${JSON.stringify(schema, null, 4)}\n`
const { prompts } = ScoringProtocol.emitPrompts({
    schemaId: 'coingecko-com/market-chart',
    schemaPath: '/abs/market-chart.mjs',
    schema
})
const scores = {
    schemaIdSlug: 'coingecko-com_market-chart',
    scoringProtocol: 'v1',
    creator: { skill: 'grade-score-single', skillVersion: '1.0.0', session: 'claude-code-2026-05-18-03-15' },
    harness: { name: 'claude-code', version: '1.0.0', model: 'claude-opus-4-7', modelContext: '1M' },
    timestamp: '2026-05-18T03:15:00Z',
    scores: [
        { dimension: 'whenToUse', score: 4.0, reasoning: 'Description is clear and specific about the data returned.' },
        {
            dimension: 'parameters',
            score: 3.5,
            reasoning: 'The id parameter is described; allowed values are not listed.'
        }
    ]
}
const scoresText = JSON.stringify(scores, null, 4)
const questions = Areas.questions({ area: 'single-test' }).questions
const output = {
    gradingId: '3f9a1c2e--2026-05-31T11-05-00Z',
    schemaHash: '3f9a1c2e',
    area: 'single-test',
    iteration: 1,
    timestamp: '2026-05-31T11:05:00Z',
    persona: null,
    answers: questions.map((q) => ({
        questionId: q.id,
        score: q.scoreType === 'boolean' ? 'pass' : 4,
        reasoning: 'checked against the schema and the captured response'
    })),
    improvementHints: [],
    harness: 'claude-code'
}
const outputText = JSON.stringify(output)
const reportInput = {
    prompts,
    scores,
    schemaSource,
    validation: { passed: true, errors: [] },
    now: '2026-05-18T03:16:00Z'
}

// Fail loudly rather than measure the error path.
if (!ScoringProtocol.validateScores({ text: scoresText, prompts }).valid) throw new Error('scores fixture is invalid')
if (ScoringProtocol.buildReport(reportInput).report === null) throw new Error('report input is invalid')
if (!Areas.validateOutput({ area: 'single-test', output: JSON.parse(outputText) }).valid)
    throw new Error('area output fixture is invalid')

const bench = new Bench({ time: 1500, warmupTime: 300 })
bench
    .add('baseline: JSON.parse(scores.json text)', () => JSON.parse(scoresText))
    .add('ScoringProtocol.validateScores({ text, prompts })', () =>
        ScoringProtocol.validateScores({ text: scoresText, prompts })
    )
    .add('ScoringProtocol.validateScores({ scores })', () => ScoringProtocol.validateScores({ scores }))
    .add('ScoringProtocol.buildReport(...)', () => ScoringProtocol.buildReport(reportInput))
    .add('baseline: JSON.parse(area output text)', () => JSON.parse(outputText))
    .add('Areas.validateOutput(single-test, parsed)', () =>
        Areas.validateOutput({ area: 'single-test', output: JSON.parse(outputText) })
    )
await bench.run()

const ops = (name) => bench.tasks.find((t) => t.name === name)?.result?.throughput?.mean ?? Number.NaN
const scoresBase = ops('baseline: JSON.parse(scores.json text)')
const outputBase = ops('baseline: JSON.parse(area output text)')
const rows = bench.tasks.map((t) => {
    const base = t.name.includes('area output') || t.name.startsWith('Areas.') ? outputBase : scoresBase
    const hz = t.result?.throughput?.mean ?? Number.NaN
    return {
        task: t.name,
        'ops/s': Math.round(hz).toLocaleString('en-US'),
        'x baseline': (hz / base).toFixed(4),
        'baseline / task': (base / hz).toFixed(1)
    }
})
console.table(rows)
