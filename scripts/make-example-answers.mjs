// Writes examples/answers.json: harness answers for the example schemas, as a grader would return
// them (one area output per unit). Scores are chosen by hand per unit; this script only lays them out.
import { writeFileSync } from 'node:fs'
import { Areas } from '../dist/index.js'

const byUnit = {
    'openmeteo.forecast': {
        'single-test/getHourlyForecast': [5, 4.5, 4, 4.5, 4, 5, 4, 4.5, 3.5, 4],
        'single-test/getCurrentWeather': [5, 4.5, 4, 4, 4, 4.5, 4, 4, 3, 4],
        'tools-aggregate-schema': [5, 4.5, 4, 5, 4.5, 4],
        'tools-aggregate-namespace': [5, 4, 4, 4.5, 'pass'],
        'namespace-description': [4.5, 4, 4, 'pass'],
        'about-namespace': ['pass', 4.5, 4, 4.5, 4, 'pass', 4]
    },
    'etherscan.contracts': {
        'single-test/getContractAbi': [5, 4, 5, 4, 3.5, 4, 3, 4, 3, 4],
        'single-test/getBalance': [5, 4, 5, 4.5, 4, 4, 3.5, 4.5, 2.5, 4],
        'tools-aggregate-schema': [5, 3.5, 3, 4, 4, 3.5],
        'tools-aggregate-namespace': [4, 3.5, 3, 3, 'pass'],
        'namespace-description': [4, 3.5, 3.5, 'fail']
    },
    'quakefeed.events': {
        'single-test/listRecentEvents': [4, 3.5, 5, 3.5, 3, 3.5, 3, 3, 2, 3.5],
        'single-test/getEvent': [4, 3, 5, 3, 3, 3, 2.5, 3, 2, 3],
        'tools-aggregate-schema': [5, 3, 3, 4, 3, 3],
        'tools-aggregate-namespace': [3, 3, 2.5, 3, 'fail'],
        'namespace-description': [3.5, 3, 3, 'fail']
    }
}

const reasons = {
    5: 'Fully met; nothing to improve.',
    4.5: 'Met, with one small gap.',
    4: 'Mostly met; one point is vague.',
    3.5: 'Partly met; two points need work.',
    3: 'Half met; the text leaves the reader guessing.',
    2.5: 'Weak; key information is missing.',
    2: 'Barely addressed.',
    pass: 'Present and correct.',
    fail: 'Missing.'
}

const answers = {}
for (const [schemaId, units] of Object.entries(byUnit)) {
    answers[schemaId] = {}
    for (const [unit, scores] of Object.entries(units)) {
        const area = unit.split('/')[0]
        const questions = Areas.questions({ area }).questions
        if (questions.length !== scores.length)
            throw new Error(`${unit}: ${questions.length} questions, ${scores.length} scores`)
        answers[schemaId][unit] = {
            answers: questions.map((q, i) => ({
                questionId: q.id,
                score: scores[i],
                reasoning: `${q.dimension}: ${reasons[scores[i]]}`
            })),
            improvementHints: scores.some((s) => typeof s === 'number' && s < 3.5)
                ? [
                      {
                          targetField: unit === 'tools-aggregate-schema' ? 'main.description' : 'tools.description',
                          suggestion: 'Document the error cases and give one example response per tool.',
                          priority: 'medium'
                      }
                  ]
                : []
        }
    }
}
const file = {
    grader: {
        name: 'flowmcp-area-grader',
        version: '1.0.0',
        llmModel: 'claude-opus-4-7',
        persona: { basePersonaId: 'schema-maintainer', lensId: 'api-quality' }
    },
    answers
}
writeFileSync(new URL('../examples/answers.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`)
process.stdout.write('examples/answers.json written\n')
