import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    DataPretest,
    gradeSingleSchema,
    Island,
    SourceSnapshot,
    type HttpPort,
    type JudgeRequest
} from '../../src/index.js'
import { exampleMain, grader, replyFor } from '../grade/helpers.js'

const SECRET = 'sk-live-7f3a9c2e41b84d0f9a6e5c3b2d1f0e9a'
const now = '2026-11-22T18:00:00Z'

/** An API that echoes the key in a value and inside a response key longer than the 97-character cut. */
const echoingApi: HttpPort = {
    send: async () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
            ['k'.repeat(85) + SECRET]: 1,
            hourly: { time: ['2026-11-22T00:00'], temperature_2m: [3.4] },
            note: `key ${SECRET}`
        })
    })
}

describe('secrets never leave the library', () => {
    it('redacts the key from judge errors, judge replies, About, skills, schema text, pretest results and every island file', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const fs = createMemoryFs()
        const asked: JudgeRequest[] = []
        const judge = async (request: JudgeRequest): Promise<string> => {
            asked.push(request)
            if (request.unit === 'namespace-description') throw new Error(`quota exceeded for key ${SECRET}`)
            // The detail is cut to 500 characters: the key straddles the cut, so only redacting first hides it.
            if (request.unit === 'tools-aggregate-namespace') throw new Error(`${'x'.repeat(495)}${SECRET}`)
            const reply = replyFor(request.area, 4) as { answers: Array<{ reasoning: string }> }
            for (const a of reply.answers) a.reasoning = `The API answered with ${SECRET}.`
            return JSON.stringify(reply)
        }
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: {
                fs,
                root: '/island',
                now,
                source: `${source}\n// debug key: ${SECRET}\n`,
                judge,
                serverParams: { OPENMETEO_KEY: SECRET },
                http: echoingApi,
                about: { text: `# Open-Meteo\n\nUse key ${SECRET} for tests.\n` },
                skills: [
                    {
                        name: 'summarizeWeather',
                        text: `export const skill = { name: 'summarizeWeather', content: 'key ${SECRET}' }\n`
                    }
                ]
            }
        })
        expect(result.grading).not.toBeNull()
        expect(result.errors.map((e) => e.code)).toContain('GRA-006')
        const leaks = (text: string): boolean => text.includes(SECRET) || text.includes(SECRET.slice(0, 12))
        expect(leaks(JSON.stringify(result))).toBe(false)
        expect(leaks(JSON.stringify(asked))).toBe(false)
        const files = fs.dump().files
        expect(Object.keys(files).length).toBeGreaterThan(5)
        expect(
            Object.entries(files)
                .filter(([, text]) => leaks(text))
                .map(([path]) => path)
        ).toEqual([])
        // Hashes are of what is stored: the redacted snapshot still verifies.
        const snapshot = Object.keys(files).find((f) => f.includes('/schema/forecast--')) as string
        expect((await SourceSnapshot.verify({ fs, path: snapshot })).valid).toBe(true)
    })

    it('stores a source holding a key redacted when importProvider is given the secrets', async () => {
        const main = {
            namespace: 'demo',
            name: 'Demo',
            description: `Demo using ${SECRET}.`,
            version: '4.0.0',
            root: 'https://api.demo.dev',
            tools: {}
        }
        const fs = createMemoryFs()
        const res = await Island.importProvider({
            fs,
            root: '/island',
            now,
            secrets: [SECRET],
            files: [
                { name: 'demo.mjs', text: `export const main = ${JSON.stringify(main)}\n` },
                { name: 'resources/demo-about.md', text: SECRET }
            ]
        })
        expect(res.status).toBe(true)
        expect(Object.values(fs.dump().files).some((t) => t.includes(SECRET))).toBe(false)
        const snapshot = Object.keys(fs.dump().files).find((f) => f.endsWith('.mjs')) as string
        expect(await fs.readFile(snapshot)).toContain('[redacted]')
        expect((await SourceSnapshot.verify({ fs, path: snapshot })).valid).toBe(true)
    })

    it('redacts a key inside a long response key before cutting it (DataPretest)', async () => {
        const { main } = await exampleMain('providers/openmeteo/forecast.mjs')
        const result = await DataPretest.run({ main, http: echoingApi, serverParams: { OPENMETEO_KEY: SECRET }, now })
        expect(JSON.stringify(result)).not.toContain(SECRET.slice(0, 12))
    })
})
