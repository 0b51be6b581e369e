// Imports the built package the way a consumer would, once as ESM and once as CJS.
import { createRequire } from 'node:module'
import assert from 'node:assert/strict'

const esm = await import('flowmcp-grading')
const cjs = createRequire(import.meta.url)('flowmcp-grading')

for (const [kind, mod] of [
    ['esm', esm],
    ['cjs', cjs]
]) {
    const version = mod.getVersion()
    assert.equal(version.gradingSystem, 'gradingSystem/1.0.0', `${kind}: getVersion`)
    assert.equal(
        mod.HashGenerator.computeHash({ value: { b: 1, a: [2, { d: null, c: 'x' }] } }).short,
        '41f05899',
        `${kind}: hashing`
    )
    process.stdout.write(`smoke ${kind}: ok (${version.packageVersion})\n`)
}
