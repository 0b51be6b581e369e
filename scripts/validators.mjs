// The JSON Schema validators of the library, generated at build time with ajv's standalone code
// (`ajv/dist/standalone`) from the schemas in schemas/: one ESM module, never written under src/. tsup (esbuild)
// and vitest (vite) serve it through the plugins below as `src/validation/generated.mjs`, which
// src/validation/generated.d.mts declares for tsc. The code is plain functions: no `new Function` or `eval` runs
// in the package (strict CSP, Workers; scripts/no-codegen.mjs checks the build).
import { transformSync } from 'esbuild'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { _ } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import standaloneCode from 'ajv/dist/standalone/index.js'
import addFormats from 'ajv-formats'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const AREA = 'https://flowmcp-grading.dev/schemas/area-output/'

/** Each exported validator and the schema (`$id`, or `$id#/pointer`) it checks. */
export const VALIDATOR_REFS = {
    validateGradingModel: 'https://flowmcp.org/spec/grading/2.0.0/grading-model.schema.json',
    validateIndexJson: 'https://flowmcp.org/grading/2.0.1/index.schema.json',
    validatePromptsV1: 'https://flowmcp-grading.dev/schemas/prompts-v1.schema.json',
    validateScoresV1: 'https://flowmcp-grading.dev/schemas/scores-v1.schema.json',
    validatePromptsV2: 'https://flowmcp-grading.dev/schemas/prompts-v2.schema.json',
    validateScoresV2: 'https://flowmcp-grading.dev/schemas/scores-v2.schema.json',
    validateWorkflowRubricSchema: 'https://flowmcp-grading.dev/schemas/workflow-rubric.schema.json',
    validateBlocker: `${AREA}_master.schema.json#/$defs/blocker`,
    validate_singleTest: `${AREA}single-test.schema.json#/$defs/envelope`,
    validate_toolsAggregateSchema: `${AREA}tools-aggregate-schema.schema.json#/$defs/envelope`,
    validate_toolsAggregateNamespace: `${AREA}tools-aggregate-namespace.schema.json#/$defs/envelope`,
    validate_namespaceDescription: `${AREA}namespace-description.schema.json#/$defs/envelope`,
    validate_namespaceSkills: `${AREA}namespace-skills.schema.json#/$defs/envelope`,
    validate_aboutNamespace: `${AREA}about-namespace.schema.json#/$defs/envelope`,
    validate_aboutSelection: `${AREA}about-selection.schema.json#/$defs/envelope`,
    validate_selectionSkillsL1: `${AREA}selection-skills-L1.schema.json#/$defs/envelope`,
    validate_selectionSkillsL2: `${AREA}selection-skills-L2.schema.json#/$defs/envelope`,
    validate_selectionSkillsL3: `${AREA}selection-skills-L3.schema.json#/$defs/envelope`,
    validate_selectionAggregate: `${AREA}selection-aggregate.schema.json#/$defs/envelope`
}

/**
 * The options the library has always validated with (01-model ⚠ A18): draft 2020-12, `strict: false` (the spec's
 * schema does not compile in strict mode), every error (`allErrors`), union types. `verbose` is off: it would embed
 * every schema in the code; the run-time wrapper (`withData` in src/validation/runtime.ts) adds ajv's `data` instead.
 * `inlineRefs: false`: each `$ref` target is one function every validator calls, not a copy in each (the twelve
 * area envelopes share the master schema's definitions: 31.7 KB gzip for all validators instead of 39.2 KB).
 */
export const AJV_OPTIONS = { strict: false, allErrors: true, allowUnionTypes: true, inlineRefs: false }

// Prose never changes a verdict; without it the schema values ajv embeds (enum, const) stay small. tsup.config.ts drops
// it from the schemas the library bundles whole with the same function.
const PROSE = new Set(['description', 'title', '$comment', 'examples'])
/** A JSON Schema without its prose (`description`, `title`, `$comment`, `examples`); property names stay. */
export function withoutProse(node, inMap = false) {
    if (Array.isArray(node)) return node.map((n) => withoutProse(n))
    if (node === null || typeof node !== 'object') return node
    return Object.fromEntries(
        Object.entries(node)
            .filter(([k]) => inMap || !PROSE.has(k))
            .map(([k, v]) => [
                k,
                inMap
                    ? withoutProse(v)
                    : ['enum', 'const', 'default'].includes(k)
                      ? v
                      : withoutProse(v, k === 'properties' || k === '$defs')
            ])
    )
}

function schemaFiles(dir) {
    return readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? schemaFiles(join(dir, e.name)) : [join(dir, e.name)]))
        .filter((f) => f.endsWith('.json'))
        .sort()
}

// ajv's standalone code `require`s its run-time helpers even in ESM mode; each one the code may name is
// replaced by the package's own copy (src/validation/runtime.ts). Any other is a build error, not a silent gap.
const HELPERS = {
    'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
    'require("ajv/dist/runtime/equal").default': 'equal'
}

/**
 * ajv records on each validator which properties it evaluated (`validate20.evaluated = {...}`), read by the
 * validators that reference it. A statement that assigns a property keeps every validator in every bundle, so the
 * record becomes a constant of its own (`validate20_evaluated`), read where the property was: the same value.
 */
function evaluatedAsConstants(code) {
    const out = code.replace(/\b(validate\d+)\.evaluated = (\{[^;]*\});/g, (_match, name, value) => {
        JSON.parse(value) // a record that is not plain JSON would be cut wrong: fail the build instead
        return `const ${name}_evaluated = ${value};`
    })
    const left = out.replace(/\b(validate\d+)\.evaluated\b/g, '$1_evaluated')
    if (/\.evaluated\s*=/.test(left)) throw new Error('ajv standalone code assigns .evaluated in an unexpected form')
    return left
}

/**
 * The ESM source of every validator in VALIDATOR_REFS.
 * @param {string} runtimePath the module holding `formats`, `ucs2length`, `equal` and `withData`
 */
export function generateValidators(runtimePath = join(root, 'src', 'validation', 'runtime.ts')) {
    const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: true, formats: _`formats` } })
    addFormats.default(ajv, ['date-time', 'uri'])
    for (const file of schemaFiles(join(root, 'schemas')))
        ajv.addSchema(withoutProse(JSON.parse(readFileSync(file, 'utf8'))))
    const names = Object.keys(VALIDATOR_REFS)
    const raw = Object.fromEntries(names.map((n) => [`raw_${n}`, VALIDATOR_REFS[n]]))
    let code = standaloneCode
        .default(ajv, raw)
        .replace(/^"use strict";/, '')
        .replace(/export const raw_/g, 'const raw_')
    for (const [from, to] of Object.entries(HELPERS)) code = code.split(from).join(to)
    code = evaluatedAsConstants(code)
    // A pattern is a `new RegExp` call, which a bundler keeps unless told it is pure.
    code = code.replace(/\bnew RegExp\(/g, '/* @__PURE__ */ new RegExp(')
    const unknown = code.match(/require\([^)]*\)/)
    if (unknown) throw new Error(`ajv standalone code needs ${unknown[0]}, which src/validation/runtime.ts lacks`)
    const imports = `import { equal, formats, ucs2length, withData } from ${JSON.stringify(runtimePath)}\n`
    const exports = names.map((n) => `export const ${n} = /* @__PURE__ */ withData(raw_${n})\n`).join('')
    return `${imports}${code}\n${exports}`
}

/** The module's path as src/validation/validators.ts imports it. */
const GENERATED = /[\\/]validation[\\/]generated\.mjs$/
let cached
const source = () => (cached ??= generateValidators())
// The build ships the code without its indentation and with the syntax shortened (names kept): ajv's output is
// half whitespace, and every CommonJS entry point carries the validators it reaches. Minifying drops the pure marks,
// which are put back so that bundlers still drop the validators a bundle does not reach.
let shippedCode
const shipped = () =>
    (shippedCode ??= transformSync(source(), { format: 'esm', minifyWhitespace: true, minifySyntax: true })
        .code.replace(/\bwithData\(/g, '/* @__PURE__ */ withData(')
        .replace(/\bnew RegExp\(/g, '/* @__PURE__ */ new RegExp('))

/** esbuild (tsup): serves src/validation/generated.mjs from generateValidators(). */
export const esbuildValidators = {
    name: 'flowmcp-validators',
    setup(build) {
        build.onResolve({ filter: /^\.\/generated\.mjs$/ }, (args) =>
            GENERATED.test(join(args.resolveDir, args.path))
                ? { path: join(args.resolveDir, args.path), namespace: 'flowmcp-validators' }
                : undefined
        )
        build.onLoad({ filter: /.*/, namespace: 'flowmcp-validators' }, () => ({
            contents: shipped(),
            loader: 'js',
            resolveDir: join(root, 'src', 'validation')
        }))
    }
}

/** vite (vitest): the same module, so tests run on src/ with the code the build ships. */
export const viteValidators = {
    name: 'flowmcp-validators',
    enforce: 'pre',
    resolveId(id, importer) {
        if (id === './generated.mjs' && importer !== undefined && GENERATED.test(join(importer, '..', id)))
            return '\0flowmcp-validators.mjs'
        return undefined
    },
    load(id) {
        return id === '\0flowmcp-validators.mjs' ? source() : undefined
    }
}
