/** A small but realistic FlowMCP v4 schema `main` and its source text. */
export const SCHEMA = {
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
                    description: 'CoinGecko coin id, e.g. bitcoin'
                },
                {
                    position: { key: 'days', value: '{{USER_PARAM}}', location: 'query' },
                    z: { primitive: 'number()', options: ['min(1)'] },
                    description: 'Number of days back'
                }
            ],
            tests: [{ _description: 'bitcoin, 7 days', id: 'bitcoin', days: 7 }]
        }
    }
}

export const SCHEMA_SOURCE = `export const main = ${JSON.stringify(SCHEMA, null, 4)}\n`

export const SCORES = {
    schemaIdSlug: 'coingecko-com_market-chart',
    scoringProtocol: 'v1',
    creator: { skill: 'grade-score-single', skillVersion: '1.0.0', session: 'claude-code-2026-05-18-03-15' },
    harness: { name: 'claude-code', version: '1.0.0', model: 'claude-opus-4-7', modelContext: '1M' },
    timestamp: '2026-05-18T03:15:00Z',
    scores: [
        { dimension: 'whenToUse', score: 4.0, reasoning: 'Description is clear and specific.' },
        {
            dimension: 'parameters',
            score: 3.5,
            reasoning: 'Tools have descriptive names; allowed values are not listed.'
        }
    ]
}

export const EMIT = {
    schemaId: 'coingecko-com/market-chart',
    schemaPath: '/island/providers/coingecko-com/market-chart/schema/market-chart.mjs',
    schema: SCHEMA
}

export function withScores(a: number, b: number): typeof SCORES {
    return {
        ...SCORES,
        scores: [
            { ...SCORES.scores[0], score: a } as (typeof SCORES.scores)[number],
            { ...SCORES.scores[1], score: b } as (typeof SCORES.scores)[number]
        ]
    }
}
