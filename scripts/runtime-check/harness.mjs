// One fixed workload over the public API, written without Node, DOM or timer globals so that it
// runs unchanged in Node, in node:vm, in a browser page and in a worker. Every result is returned
// as one JSON string, so runs in different realms compare byte for byte.
//   lib      the package's namespace (`import * as lib from 'flowmcp-grading'`)
//   modules  schema path → the loaded schema module (the schema loader port)
//   input    { sources, recordings, answers, entries, now }: file texts, all plain JSON
export async function runWorkload(lib, modules, input) {
    const out = {}
    out.entries = Object.fromEntries(
        Object.entries(input.entries).map(([name, text]) => [
            name,
            lib.validateGradingEntry({ entry: JSON.parse(text) })
        ])
    )
    out.invalidEntry = lib.validateGradingEntry({ entry: { gradingId: 42, gradings: [{ score: 'great' }] } })
    // Registry intake's Ed25519 (no code generation either): each example entry signed with the key of RFC 8037
    // Appendix A.1 and verified, through acceptGradingEntry from the entry's text.
    const key = {
        kty: 'OKP',
        crv: 'Ed25519',
        d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
        x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
        kid: 'rfc8037'
    }
    const { d: _secret, ...publicKey } = key
    out.signed = Object.entries(input.entries).map(([name, text]) => {
        const signed = lib.Grading.sign({ entry: JSON.parse(text), privateKey: key })
        if (signed.envelope === null) return [name, signed.errors]
        const accepted = lib.acceptGradingEntry({
            text,
            strict: false,
            envelope: signed.envelope,
            trustedKeys: [publicKey]
        })
        return [name, signed.envelope, accepted.valid ? accepted.provenance.graderKeyId : accepted.errors]
    })

    const fs = lib.createMemoryFs(input.sources)
    const http = lib.httpPortFromRecordings({ recordings: input.recordings })
    const schemaLoader = { load: async (path) => modules[path] }
    out.graded = []
    for (const schemaPath of Object.keys(modules).sort()) {
        const base = schemaPath
            .split('/')
            .pop()
            .replace(/\.mjs$/, '')
        const answers = Object.entries(input.answers.answers ?? {}).find(([id]) => id.endsWith(`.${base}`))?.[1]
        const result = await lib.gradeSingleSchema({
            schemaPath,
            grader: input.answers.grader,
            options: {
                sourceFs: fs,
                fs,
                root: '/island',
                now: input.now,
                http,
                schemaLoader,
                serverParams: { ETHERSCAN_API_KEY: 'example-key-not-real' },
                ...(answers !== undefined ? { answers } : {})
            }
        })
        out.graded.push({
            schemaPath,
            grading: result.grading,
            prompts: result.prompts.map((p) => [p.unit, p.area]),
            errors: result.errors
        })
    }

    out.rebuilt = {}
    for (const ns of ['etherscan', 'openmeteo', 'quakefeed', 'sportsodds']) {
        const res = await lib.RebuildIndex.rebuildNamespaceIndex({
            fs,
            namespaceDir: `/island/providers/${ns}`,
            now: input.now
        })
        out.rebuilt[ns] = { status: res.status, index: res.index, errors: res.errors }
    }
    out.island = fs.dump()
    return JSON.stringify(out)
}
