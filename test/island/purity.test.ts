import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder, SRC } from '../support/files.js'

const OWN = ['ports', 'island', 'rollup', 'naming/snapshot-filename.ts', 'naming/latest.ts']

const files = (path: string): string[] => filesUnder(path, '.ts')

describe('the island, rollup and port code stays pure', () => {
    const sources = OWN.flatMap((p) => files(join(SRC, p))).map((f) => ({
        f: f.slice(SRC.length),
        // Code only: TSDoc examples may show how a host passes node:fs in.
        text: readFileSync(f, 'utf8')
            .split('\n')
            .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
            .join('\n')
    }))

    it.each([
        { what: 'node:* imports', pattern: /from ['"]node:|import\(['"]node:|require\(/ },
        { what: 'process', pattern: /\bprocess\./ },
        { what: 'an uninjected clock', pattern: /Date\.now\(|new Date\(\)/ },
        { what: 'randomness', pattern: /Math\.random/ },
        { what: 'console output', pattern: /\bconsole\./ }
    ])('contains no $what', ({ pattern }) => {
        expect(sources.filter((s) => pattern.test(s.text)).map((s) => s.f)).toEqual([])
    })
})
