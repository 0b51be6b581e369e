// Deterministic (offline) grading of 500 generated schemas: schemas per second and peak heap,
// beside a baseline measured in the same run (canonical hashing of the same schemas).
import { gradeSingleSchema, HashGenerator } from '../dist/index.js'

const N = 500
const now = '2026-11-22T18:00:00Z'

function schema(i) {
    const tools = {}
    for (let t = 0; t < 1 + (i % 6); t += 1) {
        tools[`getItem${t}`] = {
            method: 'GET',
            path: `/v1/items/{{id}}`,
            description: `Returns item ${t} by id as JSON with name, price and stock.`,
            parameters: [
                {
                    position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' },
                    z: { primitive: 'string()', options: [] },
                    description: 'Item id.'
                },
                {
                    position: { key: 'currency', value: 'EUR', location: 'query' },
                    z: { primitive: 'string()', options: [] },
                    description: 'Fixed currency.'
                }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: { name: { type: 'string' }, price: { type: 'number' }, stock: { type: 'number' } }
                }
            },
            tests: [
                { _description: 'a', id: `a${i}` },
                { _description: 'b', id: `b${i}` },
                { _description: 'c', id: `c${i}` }
            ]
        }
    }
    return {
        namespace: `shop${i}`,
        name: 'Items',
        description: `Items of shop ${i}.`,
        version: '4.2.0',
        root: `https://api.shop${i}.example`,
        docs: [`https://shop${i}.example/docs`],
        requiredServerParams: i % 5 === 0 ? [`SHOP${i}_API_KEY`] : [],
        tools
    }
}

const schemas = Array.from({ length: N }, (_, i) => schema(i))

// Sampled after every schema: the loops are synchronous enough that a timer would never fire.
async function measure(each) {
    let peak = process.memoryUsage().heapUsed
    const t = performance.now()
    for (const main of schemas) {
        await each(main)
        peak = Math.max(peak, process.memoryUsage().heapUsed)
    }
    return { ms: performance.now() - t, peak }
}

export async function run() {
    globalThis.gc?.()
    const base = process.memoryUsage().heapUsed
    const floor = await measure(async (main) => HashGenerator.computeSchemaHash({ schema: main }))
    globalThis.gc?.()
    const graded = await measure((main) => gradeSingleSchema({ schema: { main }, options: { now } }))
    const perSec = (ms) => Math.round((N / ms) * 1000)
    return [
        {
            name: `baseline: computeSchemaHash × ${N}`,
            opsPerSec: perSec(floor.ms),
            note: `peak heap +${((floor.peak - base) / 1e6).toFixed(1)} MB`
        },
        {
            name: `gradeSingleSchema offline × ${N}`,
            opsPerSec: perSec(graded.ms),
            note: `peak heap +${((graded.peak - base) / 1e6).toFixed(1)} MB, ${(graded.ms / N).toFixed(2)} ms per schema`
        }
    ]
}
