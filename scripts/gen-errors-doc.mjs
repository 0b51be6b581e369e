// Regenerates docs/errors.md from the catalogue in src/errors/catalogue/, straight from the sources: esbuild
// bundles the error-code module in memory (well under a second), so a changed row needs no `npm run build`.
// Usage: node scripts/gen-errors-doc.mjs   (npm run docs:errors)
import { readFileSync, writeFileSync } from 'node:fs'
import { build } from 'esbuild'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const bundled = await build({
    entryPoints: [new URL('../src/report/error-codes.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { __PACKAGE_VERSION__: JSON.stringify(pkg.version) }
})
const source = Buffer.from(bundled.outputFiles[0].contents).toString('base64')
const { ErrorCodes } = await import(`data:text/javascript;base64,${source}`)

writeFileSync(new URL('../docs/errors.md', import.meta.url), ErrorCodes.toMarkdown().markdown)
process.stdout.write('docs/errors.md written\n')
