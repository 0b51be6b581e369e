// Compiles every JSON Schema the library validates against into standalone ajv code, once, at
// development time: the shipped package then never builds functions from strings (strict CSP,
// Cloudflare Workers and node:vm without code generation all forbid that) and carries no ajv.
//
//   node scripts/gen-validators.mjs           writes src/validation/generated/*.ts
//   node scripts/gen-validators.mjs --check   exits 1 when a committed file is stale
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020, _ } from 'ajv/dist/2020.js'
import standaloneCode from 'ajv/dist/standalone/index.js'
import addFormats from 'ajv-formats'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const outDir = join(root, 'src', 'validation', 'generated')
const schema = (rel) => JSON.parse(readFileSync(join(root, 'schemas', rel), 'utf8'))

// The options the library has always validated with: the spec's schemas do not compile in strict
// mode (01-model ⚠ A18). The issue mappers quote the failing value (ajv's `verbose` `data`); it is
// added at run time by `withData` (src/validation/runtime.ts), because `verbose` also inlines the
// schema into every error site and made the area output validators several times larger.
const SPEC_OPTIONS = { strict: false, allErrors: true, allowUnionTypes: true }
// The workflow rubric schema is ours and compiles strictly.
const RUBRIC_OPTIONS = { allErrors: true, strict: true }

const AREAS = [
    'single-test', 'tools-aggregate-schema', 'tools-aggregate-namespace', 'namespace-description', 'namespace-skills',
    'about-namespace', 'about-selection', 'selection-skills-L1', 'selection-skills-L2', 'selection-skills-L3', 'selection-aggregate'
]
const AREA_HOST = 'https://flowmcp-grading.dev/schemas/area-output/'
// The formats src/validation/runtime.ts implements (copied from ajv-formats).
const SHIPPED_FORMATS = ['date-time', 'uri']
const camel = (s) => s.replace(/-([a-zA-Z0-9])/g, (_m, c) => c.toUpperCase())

// ajv compiles a `$ref` into another file's `$defs` once per referring root schema, so the master's
// shared definitions came out eleven times. Compiled here as schemas of their own (each with an
// `$id`, every reference rewritten to it), they are compiled once. Validation results, error
// keywords, messages and instance paths are unchanged; only `schemaPath` differs, which no
// issue mapper reads.
const MASTER_ID = `${AREA_HOST}_master.schema.json`
const MASTER_DEF = `${AREA_HOST}_master/`
function splitMasterDefs(schemas) {
    const rewrite = (node, local) => {
        if (Array.isArray(node)) return node.map((n) => rewrite(n, local))
        if (node === null || typeof node !== 'object') return node
        return Object.fromEntries(Object.entries(node).map(([k, v]) => {
            if (k !== '$ref' || typeof v !== 'string') return [k, rewrite(v, local)]
            if (v.startsWith(`${MASTER_ID}#/$defs/`)) return [k, MASTER_DEF + v.slice(`${MASTER_ID}#/$defs/`.length)]
            if (local && v.startsWith('#/$defs/')) return [k, MASTER_DEF + v.slice('#/$defs/'.length)]
            return [k, v]
        }))
    }
    const [master, ...areas] = schemas
    const defs = Object.entries(master.$defs).map(([name, def]) => ({ $id: `${MASTER_DEF}${name}`, ...rewrite(def, true) }))
    return [...defs, ...areas.map((a) => rewrite(a, false))]
}

/** One output module: which schemas go into one ajv instance and which refs it exports under which names. */
const MODULES = [
    { file: 'grading-model', options: SPEC_OPTIONS, schemas: ['grading-model.schema.json'], exports: { validateGradingModel: 'https://flowmcp.org/spec/grading/2.0.0/grading-model.schema.json' } },
    { file: 'index-json', options: SPEC_OPTIONS, schemas: ['index.schema.json'], exports: { validateIndexJson: 'https://flowmcp.org/grading/2.0.1/index.schema.json' } },
    {
        file: 'protocol-v1', options: SPEC_OPTIONS, schemas: ['prompts-v1.schema.json', 'scores-v1.schema.json'],
        exports: { validatePromptsV1: 'https://flowmcp-grading.dev/schemas/prompts-v1.schema.json', validateScoresV1: 'https://flowmcp-grading.dev/schemas/scores-v1.schema.json' }
    },
    {
        file: 'protocol-v2', options: SPEC_OPTIONS, schemas: ['prompts-v2.schema.json', 'scores-v2.schema.json'],
        exports: { validatePromptsV2: 'https://flowmcp-grading.dev/schemas/prompts-v2.schema.json', validateScoresV2: 'https://flowmcp-grading.dev/schemas/scores-v2.schema.json' }
    },
    {
        file: 'area-output', options: { ...SPEC_OPTIONS, inlineRefs: false },
        schemas: ['area-output/_master.schema.json', ...AREAS.map((a) => `area-output/${a}.schema.json`)],
        prepare: splitMasterDefs,
        exports: {
            ...Object.fromEntries(AREAS.map((a) => [`validate_${camel(a)}`, `${AREA_HOST}${a}.schema.json#/$defs/envelope`])),
            validateBlocker: `${MASTER_DEF}blocker`
        }
    },
    { file: 'workflow-rubric', options: RUBRIC_OPTIONS, plain: true, schemas: ['workflow-rubric.schema.json'], exports: { validateWorkflowRubricSchema: 'https://flowmcp-grading.dev/schemas/workflow-rubric.schema.json' } }
]

// Runtime helpers standalone code asks for with require(): mapped to ESM imports that work the
// same in Node, in bundlers and in the CJS build.
const RUNTIME = {
    'require("ajv/dist/runtime/ucs2length").default': { name: 'ucs2length', from: '../runtime.js' },
    'require("ajv/dist/runtime/equal").default': { name: 'equal', from: '../runtime.js' }
}

// Whether every length limit in a schema tree gives the same answer counted in code units as in
// code points: `minLength` 0 or 1 (a string has a code point iff it has a code unit) and
// `maxLength` 0. `maxLength: 1` is not: one astral character is one code point but two units.
function lengthLimitsUnitSafe(node) {
    if (Array.isArray(node)) return node.every(lengthLimitsUnitSafe)
    if (node === null || typeof node !== 'object') return true
    return Object.entries(node).every(([k, v]) => {
        if (k === 'minLength' && typeof v === 'number') return v <= 1
        if (k === 'maxLength' && typeof v === 'number') return v === 0
        return lengthLimitsUnitSafe(v)
    })
}

function generate(mod) {
    const loaded = mod.schemas.map(schema)
    // ajv counts string length in code points (a scan of the whole string) by default. Where code
    // points and code units give the same answer for every limit, `.length` is used: an answer's
    // reasoning is no longer walked character by character.
    // The option is deprecated in ajv 8 (still honoured); its notice is the only one silenced.
    const unicode = !lengthLimitsUnitSafe(loaded)
    const logger = { log: console.log, error: console.error, warn: (...args) => (String(args[0]).startsWith('DEPRECATED: option unicode') ? undefined : console.warn(...args)) }
    // `formats` is imported by the generated module from ../runtime.js (see the header below).
    const ajv = new Ajv2020({ ...mod.options, unicode, logger, code: { source: true, esm: true, lines: true, formats: _`formats` } })
    addFormats.default(ajv)
    for (const s of mod.prepare ? mod.prepare(loaded) : loaded) ajv.addSchema(s)
    let code = standaloneCode.default(ajv, mod.exports)
    const imports = new Map()
    for (const [req, imp] of Object.entries(RUNTIME)) {
        if (code.includes(req)) {
            code = code.split(req).join(imp.name)
            imports.set(imp.name, imp.from)
        }
    }
    const used = [...code.matchAll(/\bformats(?:\["([^"]+)"\]|\.(\w+))/g)].map((m) => m[1] ?? m[2])
    const missing = used.filter((f) => !SHIPPED_FORMATS.includes(f))
    if (missing.length > 0) throw new Error(`${mod.file}: add format(s) ${missing.join(', ')} to src/validation/runtime.ts`)
    if (used.length > 0) imports.set('formats', '../runtime.js')
    if (!mod.plain) imports.set('withData', '../runtime.js')
    if (/\brequire\(/.test(code)) throw new Error(`${mod.file}: generated code still calls require(): ${code.match(/require\([^)]*\)/)[0]}`)
    if (/\bnew Function\b|\beval\(/.test(code)) throw new Error(`${mod.file}: generated code builds functions at run time`)
    const names = Object.keys(mod.exports)
    const header = [
        '// @ts-nocheck',
        `// Generated by scripts/gen-validators.mjs from schemas/${mod.schemas.length === 1 ? mod.schemas[0] : `{${mod.schemas.join(',')}}`}. Do not edit: run \`npm run gen:validators\`.`,
        ...[...new Set(imports.values())].map((from) => `import { ${[...imports].filter(([, f]) => f === from).map(([n]) => n).sort().join(', ')} } from '${from}'`),
        "import type { ValidateFunction } from '../types.js'",
        ''
    ].join('\n')
    // ajv's ESM output exports `const name = validateNN`; the typed re-export keeps the d.ts free of ajv.
    code = code.replace(/^"use strict";/, '')
    for (const n of names) code = code.replace(new RegExp(`export const ${n} = `), `const ${n}_ = `)
    const footer = names.map((n) => `export const ${n}: ValidateFunction = ${mod.plain ? `${n}_` : `/* @__PURE__ */ withData(${n}_)`}`).join('\n')
    return `${header}${code.trim()}\n${footer}\n`
}

const check = process.argv.includes('--check')
const expected = new Map(MODULES.map((m) => [`${m.file}.ts`, generate(m)]))
if (check) {
    const present = new Set(readdirSync(outDir))
    const stale = [...expected].filter(([f, text]) => !present.has(f) || readFileSync(join(outDir, f), 'utf8') !== text).map(([f]) => f)
    const extra = [...present].filter((f) => !expected.has(f))
    if (stale.length + extra.length > 0) {
        process.stderr.write(`stale generated validators: ${[...stale, ...extra].join(', ')} — run npm run gen:validators\n`)
        process.exit(1)
    }
} else {
    rmSync(outDir, { recursive: true, force: true })
    mkdirSync(outDir, { recursive: true })
    for (const [f, text] of expected) writeFileSync(join(outDir, f), text)
    process.stdout.write(`wrote ${expected.size} modules to ${outDir}\n`)
}
